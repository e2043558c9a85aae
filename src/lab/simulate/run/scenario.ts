/**
 * What a simulation runs: the daemon's configuration (the package's `config/paper.json` under
 * every `--config` file), the simulated venue (the package's `config/sim.json`, or `--market`),
 * the latency profile, the seed and the length. Venue URLs, keys and the store are the
 * simulation's own; the environment's `LEDGER_MM_*` variables for them are ignored.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { loadConfig } from '../../../config/load.js';
import type { MmConfig } from '../../../config/schema.js';
import type { ReplayConfig } from '../../../sim/market/dynamics-config.js';
import { MarketConfigSchema } from '../../../sim/market/market-config.js';
import { DEFAULT_SIM_CONFIG_PATH, SimConfigSchema, type SimConfig } from '../../../sim/sim-config.js';
import { applyRegime } from '../../regimes/suite.js';
import { PAPER_CONFIG_FILE } from '../../rig/paper-tuning.js';
import { RIG_OWNED_ENV } from '../../rig/sim-rig.js';

/** The fixed start of simulated time: a UTC day boundary (the daily loss guard's reset). */
export const SIM_T0 = Date.parse('2025-01-06T00:00:00.000Z');

/** The latency profiles a simulation accepts (`instant` would make every figure trivial). */
export const SIM_LATENCIES = ['realistic', 'fast'] as const;
/** A latency profile a simulation accepts. */
export type SimLatency = (typeof SIM_LATENCIES)[number];

/** What the command line gives. */
export interface ScenarioInput {
  readonly hours: number;
  readonly seed: number | string;
  readonly latency: SimLatency;
  /** `--config` files, layered over `config/paper.json` in order. */
  readonly configFiles: readonly string[];
  /** `--market FILE`: a whole sim config, or only its `market` section. */
  readonly market: string | null;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** A market regime (`src/lab/regimes/suite.ts`) applied to every pair of the market. */
  readonly regime?: string;
  /** `--prices PAIR=FILE`: recorded series replayed as those pairs' references. */
  readonly prices?: Readonly<Record<string, string>>;
  /** The largest gap between recorded rows that replay holds the last price over, ms. */
  readonly maxGapMs?: number;
  /** The daemon's account split over this many parties (default 1). */
  readonly parties?: number;
}

/** A resolved scenario. */
export interface Scenario extends ScenarioInput {
  readonly durationMs: number;
  readonly config: MmConfig;
  readonly sim: SimConfig;
}

/** Variables the simulation sets itself (the rig's, and the store: a run's journal is its own). */
const OWN_ENV = [...RIG_OWNED_ENV, 'LEDGER_MM_STORE_PATH'];

/** A scenario that cannot run; the message says why. */
export class ScenarioError extends Error {
  override readonly name = 'ScenarioError';
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ScenarioError(`cannot read ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The sim config: `config/sim.json`, or `--market` as a whole sim config or as its market section. */
export function loadSimScenario(market: string | null, cwd: string): SimConfig {
  const base = readJson(DEFAULT_SIM_CONFIG_PATH) as Record<string, unknown>;
  if (market === null) return SimConfigSchema.parse(base);
  const path = resolve(cwd, market);
  const raw = readJson(path);
  const whole =
    typeof raw === 'object' &&
    raw !== null &&
    ('accounts' in raw || Array.isArray((raw as { pairs?: unknown }).pairs));
  const invalid = (error: z.ZodError): ScenarioError =>
    new ScenarioError(`invalid market file ${path}:\n${z.prettifyError(error)}`);
  if (!whole) {
    const section = MarketConfigSchema.safeParse(raw);
    if (!section.success) throw invalid(section.error);
  }
  const parsed = SimConfigSchema.safeParse(whole ? raw : { ...base, market: raw });
  if (!parsed.success) throw invalid(parsed.error);
  return parsed.data;
}

/**
 * Resolves a scenario; `replays` (read by `loadReplays` from `input.prices`, which is async) drive
 * those pairs' references. Throws the config loader's ConfigError for an invalid daemon config, and
 * {@link ScenarioError} for a market that cannot run it (no account, a pair it does not list).
 */
export function loadScenario(
  input: ScenarioInput,
  replays?: Readonly<Record<string, ReplayConfig>>,
): Scenario {
  const env = { ...input.env };
  for (const k of OWN_ENV) delete env[k];
  const config = loadConfig({ configFiles: [PAPER_CONFIG_FILE, ...input.configFiles], env, cwd: input.cwd });
  const loaded = loadSimScenario(input.market, input.cwd);
  let sim = loaded;
  if (input.regime !== undefined) {
    try {
      sim = { ...loaded, market: applyRegime(loaded.market, input.regime) };
    } catch (err) {
      throw new ScenarioError(err instanceof Error ? err.message : String(err));
    }
  }
  for (const pair of Object.keys(input.prices ?? {})) {
    const modelled = sim.market.pairs[pair];
    if (modelled === undefined)
      throw new ScenarioError(`--prices ${pair}: the simulated market has no pair ${pair} (market.pairs)`);
    const replay = replays?.[pair];
    if (replay !== undefined)
      sim = {
        ...sim,
        market: { ...sim.market, pairs: { ...sim.market.pairs, [pair]: { ...modelled, replay } } },
      };
  }
  if (sim.accounts.length === 0) throw new ScenarioError('the sim config has no account for the daemon');
  if (config.pairs.length === 0) throw new ScenarioError('no pairs configured');
  const listed = new Set(sim.pairs.map((p) => p.pair));
  const modelled = new Set(Object.keys(sim.market.pairs));
  for (const pair of config.pairs) {
    if (!listed.has(pair)) throw new ScenarioError(`pair ${pair} is not listed by the simulated venue`);
    if (sim.market.enabled && !modelled.has(pair))
      throw new ScenarioError(`pair ${pair} has no simulated market (market.pairs)`);
  }
  return { ...input, env, durationMs: Math.round(input.hours * 3_600_000), config, sim };
}
