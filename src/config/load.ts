/**
 * Loads the configuration: layers `config/default.json`, the `--config` files, the files of
 * `LEDGER_MM_CONFIG` and the `LEDGER_MM_*` environment through convict, validates every leaf and
 * the rules between keys, resolves the API key and relative paths, and returns one deeply frozen
 * {@link MmConfig}, or a {@link ConfigError} naming every problem. It reads only the files: no
 * process env, argv or cwd, so a reload calls it again. The first step of every command; the
 * daemon is built from its result.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import convict from 'convict';

import { apiKeyHandle, isApiKey } from '../logging/redact.js';
import { type AnySection, getPath, leaves } from './define.js';
import { strategyConfigIssues } from './sections/strategy-rules.js';
import { ioReason, readConfigFile, screen } from './config-file.js';
import { ConfigError, type ConfigIssue, MASKED, formatConfigError, renderValue } from './errors.js';
import { OPTIONAL_PATH, PATH, checkFormat } from './formats.js';
import { unknownEnvironment } from './unknown-names.js';
import { type HedgeConfig, hedgeConfigIssues } from './sections/hedge.js';
import {
  CONFIG_FILES_ENV,
  type MmConfig,
  type StrategyConfig,
  type VenueConfig,
  configSchema,
} from './schema.js';

/** Inputs of {@link loadConfig}. Nothing is read from the process: not its env, argv or cwd. */
export interface LoadConfigOptions {
  /** The `--config` files, in the order given; relative paths are resolved against `cwd`. */
  readonly configFiles: readonly string[];
  /** The environment (`LEDGER_MM_*` variables and `LEDGER_MM_CONFIG`). */
  readonly env: NodeJS.ProcessEnv;
  /** The working directory relative paths are resolved against. */
  readonly cwd: string;
}

/** The exit code of an invalid configuration (the CLI's usage code). */
export const CONFIG_EXIT_CODE = 2;

/** `config/default.json` of the package, found from this module, not from the working directory. */
export const DEFAULT_CONFIG_FILE = fileURLToPath(new URL('../../config/default.json', import.meta.url));

/** One config file in the layering, with the reason it is loaded. */
export interface ConfigLayer {
  /** Absolute path. */
  readonly path: string;
  readonly origin: 'default' | '--config' | typeof CONFIG_FILES_ENV;
}

/**
 * The config files, in the order they are applied (later ones win): `config/default.json`, then
 * every `--config` file in order, then every file listed in `LEDGER_MM_CONFIG` (comma-separated)
 * in order. Environment variables are applied over all of them.
 */
export function configLayers(opts: LoadConfigOptions): ConfigLayer[] {
  const fromEnv = (opts.env[CONFIG_FILES_ENV] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return [
    { path: DEFAULT_CONFIG_FILE, origin: 'default' },
    ...opts.configFiles.map((f): ConfigLayer => ({ path: resolve(opts.cwd, f), origin: '--config' })),
    ...fromEnv.map((f): ConfigLayer => ({ path: resolve(opts.cwd, f), origin: CONFIG_FILES_ENV })),
  ];
}

const SCHEMA = configSchema as unknown as AnySection;
const LEAVES = leaves(SCHEMA);

/**
 * Loads, layers and validates the configuration (see {@link configLayers} for the order) and
 * resolves the API key (LEDGER_MM_API_KEY, else the trimmed contents of `venue.apiKeyFile`).
 * File paths in the result are absolute. The result is deeply frozen.
 *
 * Pure apart from reading the files: no globals, no `process.env`, no `process.argv`, so it can
 * be called again (to reload) with the same or other inputs.
 *
 * @throws ConfigError listing every problem: unreadable or malformed files, unknown keys, a secret
 *   in a file, values of the wrong format, inconsistent values, a missing or malformed API key.
 */
export function loadConfig(opts: LoadConfigOptions): MmConfig {
  const issues: ConfigIssue[] = [];
  const sources = new Map<string, string>();
  // `args: []` keeps convict away from process.argv; `env` keeps it away from process.env.
  const conf = convict<MmConfig>(configSchema, {
    env: opts.env,
    args: [],
  });

  for (const layer of configLayers(opts)) {
    const content = readConfigFile(layer.path, issues);
    if (content === undefined) continue;
    conf.load(screen(content, SCHEMA, '', layer.path, issues, sources));
  }
  for (const { key, leaf } of LEAVES) {
    if (leaf.env !== undefined && opts.env[leaf.env] !== undefined) sources.set(key, `env ${leaf.env}`);
  }

  const props = conf.getProperties() as unknown as Record<string, unknown>;
  const bad = new Set<string>();
  for (const { key, leaf } of LEAVES) {
    const value = getPath(props, key);
    try {
      checkFormat(leaf.format, value);
    } catch (e) {
      bad.add(key);
      issues.push({
        key,
        value: renderValue(value, leaf.sensitive === true),
        reason: (e as Error).message,
        source: sources.get(key) ?? 'default',
      });
    }
  }
  issues.push(...crossChecks(props, bad, sources));
  issues.push(...unknownEnvironment(opts.env));
  // The rules between strategy keys (min ≤ max, overrides only for configured pairs): the same
  // check the daemon makes when it resolves its params, so `check` refuses what `run` would.
  if (![...bad].some((k) => k === 'pairs' || k.startsWith('strategy.'))) {
    for (const issue of strategyConfigIssues(
      props['strategy'] as StrategyConfig,
      props['pairs'] as string[],
    )) {
      issues.push({ ...issue, source: issue.key === undefined ? 'default' : sourceOf(issue.key, sources) });
    }
  }

  if (![...bad].some((k) => k === 'pairs' || k.startsWith('hedge.'))) {
    for (const issue of hedgeConfigIssues(props['hedge'] as HedgeConfig, props['pairs'] as string[]))
      issues.push({ ...issue, source: issue.key === undefined ? 'default' : sourceOf(issue.key, sources) });
  }

  const venue = props['venue'] as { apiKey: string; apiKeyFile: string };
  let apiKey = '';
  if (!bad.has('venue.apiKey') && !bad.has('venue.apiKeyFile')) {
    const resolved = apiKeyOrIssue(venue, opts.cwd, sources);
    if ('issue' in resolved) issues.push(resolved.issue);
    else apiKey = resolved.apiKey;
  }

  if (issues.length === 0) {
    // convict's own strict validation as a backstop; everything it checks was checked above.
    try {
      conf.validate({ allowed: 'strict', output: () => undefined });
    } catch (e) {
      issues.push({ reason: (e as Error).message });
    }
  }
  if (issues.length > 0) throw new ConfigError(issues);

  for (const { key, leaf } of LEAVES) {
    if (leaf.format !== PATH && leaf.format !== OPTIONAL_PATH) continue;
    const value = getPath(props, key) as string;
    if (value !== '') setPath(props, key, resolve(opts.cwd, value));
  }
  venue.apiKey = apiKey;

  return deepFreeze(props) as unknown as MmConfig;
}

/**
 * The API key: `venue.apiKey` (from LEDGER_MM_API_KEY) when set, else the trimmed contents of
 * `venue.apiKeyFile` (relative to `cwd`), else `''`. {@link loadConfig} has already applied this,
 * so a loaded config's `venue.apiKey` is the resolved key.
 *
 * @throws ConfigError when the file cannot be read or is empty, or the key is not of the form
 *   `mm_ak_<prefix>.<secret>` (the key itself is never part of the message).
 */
export function resolveApiKey(venue: Pick<VenueConfig, 'apiKey' | 'apiKeyFile'>, cwd: string): string {
  const resolved = apiKeyOrIssue(venue, cwd, new Map());
  if ('issue' in resolved) throw new ConfigError([resolved.issue]);
  return resolved.apiKey;
}

function apiKeyOrIssue(
  venue: Pick<VenueConfig, 'apiKey' | 'apiKeyFile'>,
  cwd: string,
  sources: ReadonlyMap<string, string>,
): { apiKey: string } | { issue: ConfigIssue } {
  let apiKey = venue.apiKey.trim();
  let key = 'venue.apiKey';
  let source = sources.get(key) ?? 'env LEDGER_MM_API_KEY';
  if (apiKey === '' && venue.apiKeyFile !== '') {
    const file = resolve(cwd, venue.apiKeyFile);
    key = 'venue.apiKeyFile';
    source = sources.get(key) ?? 'default';
    const value = renderValue(venue.apiKeyFile);
    try {
      apiKey = readFileSync(file, 'utf8').trim();
    } catch (e) {
      return { issue: { key, value, source, reason: `cannot read the API key file: ${ioReason(e)}` } };
    }
    if (apiKey === '') return { issue: { key, value, source, reason: 'the API key file is empty' } };
    // The value is the file path; the key it holds is never shown.
    if (!isApiKey(apiKey)) {
      return {
        issue: {
          key,
          value,
          source,
          reason: 'the file does not hold an API key of the form mm_ak_<prefix>.<secret>',
        },
      };
    }
  }
  if (apiKey !== '' && !isApiKey(apiKey)) {
    return {
      issue: { key, value: MASKED, source, reason: 'must be an API key of the form mm_ak_<prefix>.<secret>' },
    };
  }
  return { apiKey };
}

/** Result of {@link loadConfigOrExit}. */
export type ConfigResult =
  | { readonly ok: true; readonly config: MmConfig }
  | { readonly ok: false; readonly exitCode: 2; readonly error: ConfigError };

/**
 * {@link loadConfig} for a command: on a configuration problem, writes the report to stderr and
 * returns the exit code (2, usage), for the command to return before anything reaches the venue.
 * Anything other than a {@link ConfigError} is a bug and is rethrown.
 */
export function loadConfigOrExit(
  opts: LoadConfigOptions,
  io: { readonly stderr: (text: string) => void },
): ConfigResult {
  try {
    return { ok: true, config: loadConfig(opts) };
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    io.stderr(formatConfigError(e));
    return { ok: false, exitCode: CONFIG_EXIT_CODE, error: e };
  }
}

/**
 * A copy of `config` that is safe to print: every secret replaced, the API key by its public
 * handle `mm_ak_<prefix>`.
 */
export function maskConfig(config: MmConfig): MmConfig {
  const copy = structuredClone(config) as unknown as Record<string, unknown>;
  for (const { key, leaf } of LEAVES) {
    if (leaf.sensitive !== true) continue;
    const value = getPath(copy, key);
    if (typeof value === 'string' && value !== '') {
      setPath(copy, key, key === 'venue.apiKey' && isApiKey(value) ? apiKeyHandle(value) : MASKED);
    }
  }
  return deepFreeze(copy) as unknown as MmConfig;
}

/**
 * Where a strategy issue's key was set: `strategy.pairs[0] (ETH/USDC).spread.minBps` or
 * `strategy.defaults.spread.minBps` → the source of the closest key the layers set.
 */
function sourceOf(key: string, sources: ReadonlyMap<string, string>): string {
  const plain = key.replace(/ \([^)]*\)/, '');
  for (let k = plain; k !== ''; k = k.includes('.') ? k.slice(0, k.lastIndexOf('.')) : '') {
    const s = sources.get(k) ?? sources.get(k.replace(/\[\d+\]/, ''));
    if (s !== undefined) return s;
  }
  return sources.get('strategy.pairs') ?? 'default';
}

/** Rules between keys; a key already reported bad is not checked again. */
function crossChecks(
  props: Record<string, unknown>,
  bad: ReadonlySet<string>,
  sources: ReadonlyMap<string, string>,
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const base = 'venue.retry.baseDelayMs';
  const max = 'venue.retry.maxDelayMs';
  if (!bad.has(base) && !bad.has(max)) {
    const b = getPath(props, base) as number;
    const m = getPath(props, max) as number;
    if (m < b) {
      issues.push({
        key: max,
        value: renderValue(m),
        source: sources.get(max) ?? 'default',
        reason: `must be at least ${base} (${b})`,
      });
    }
  }
  return issues;
}

function setPath(obj: Record<string, unknown>, key: string, value: unknown): void {
  const parts = key.split('.');
  const last = parts.pop() as string;
  let cur = obj;
  for (const p of parts) cur = cur[p] as Record<string, unknown>;
  cur[last] = value;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
