/**
 * Hot reload of a running daemon's configuration: on SIGHUP or a change to a config file, the
 * {@link ConfigReloader} re-runs the whole load and swaps in only the `strategy` and `risk`
 * sections, in one assignment; an invalid file leaves the config in force. It owns the file
 * watches (including a ConfigMap's `..data` swap) and their debounce on the injected clock.
 * `daemon/trading/live-config.ts` resolves the new params for the next quote cycle; credentials,
 * URLs and the store never reload.
 */
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

import type { Clock, TimerHandle } from '../core/clock.js';
import { ConfigError } from './errors.js';
import { configLayers, loadConfig, type LoadConfigOptions } from './load.js';
import type { MmConfig } from './schema.js';

/** The sections a running daemon takes from a reload. Everything else needs a restart. */
export const RELOADABLE_SECTIONS = ['strategy', 'risk'] as const;
export type ReloadableSection = (typeof RELOADABLE_SECTIONS)[number];

/** The outcome of one reload attempt. */
export type ReloadOutcome =
  | {
      readonly ok: true;
      /** The config now in force: the old one with the reloadable sections replaced. */
      readonly config: MmConfig;
      /** Dotted keys of reloadable values that changed; empty when nothing did. */
      readonly changed: readonly string[];
      /** Top-level sections that changed on disk but do not reload (credentials, URLs, store…). */
      readonly ignored: readonly string[];
    }
  | { readonly ok: false; readonly error: ConfigError };

/**
 * Re-reads and validates every config layer and returns the config to apply: the current one
 * with only the strategy and risk sections replaced. An invalid file leaves the current config in
 * force (`ok: false` names each bad key). Credentials and venue URLs never reload. Pure apart
 * from reading the files.
 */
export function reloadConfig(current: MmConfig, opts: LoadConfigOptions): ReloadOutcome {
  let next: MmConfig;
  try {
    next = loadConfig(opts);
  } catch (err) {
    if (err instanceof ConfigError) return { ok: false, error: err };
    throw err;
  }
  const changed: string[] = [];
  for (const section of RELOADABLE_SECTIONS) diffKeys(current[section], next[section], section, changed);
  const ignored = (Object.keys(next) as (keyof MmConfig)[]).filter(
    (k) => !(RELOADABLE_SECTIONS as readonly string[]).includes(k) && !isDeepStrictEqual(current[k], next[k]),
  );
  const config = Object.freeze({ ...current, strategy: next.strategy, risk: next.risk });
  return { ok: true, config, changed, ignored };
}

function diffKeys(a: unknown, b: unknown, path: string, out: string[]): void {
  if (isDeepStrictEqual(a, b)) return;
  const isObj = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObj(a) && isObj(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)]))
      diffKeys(a[k], b[k], `${path}.${k}`, out);
    return;
  }
  out.push(path);
}

/** Watches files for changes; injected so tests need no real file system events. */
export type FileWatcher = (path: string, onChange: () => void) => { close(): void };

/**
 * The real watcher: `fs.watch` on the file and on its directory. The directory's watch sees a file
 * replaced by a rename, which leaves the file's own watch on the old inode: editors that save
 * through a temporary file, and Kubernetes, which updates a mounted ConfigMap or Secret by
 * swapping the directory's `..data` symlink.
 */
export const fsWatcher: FileWatcher = (path, onChange) => {
  const watchers: FSWatcher[] = [];
  const base = basename(path);
  const add = (target: string, relevant: (name: string | null) => boolean): void => {
    try {
      const w = watch(target, { persistent: false }, (_event, name) => {
        if (relevant(name === null ? null : String(name))) onChange();
      });
      w.on('error', () => undefined);
      watchers.push(w);
    } catch {
      // a layer that cannot be watched still reloads on SIGHUP
    }
  };
  add(path, () => true);
  add(dirname(path), (name) => name === null || name === base || name.startsWith('..'));
  return { close: () => watchers.forEach((w) => w.close()) };
};

/** Options of {@link ConfigReloader}. */
export interface ConfigReloaderOptions {
  readonly load: LoadConfigOptions;
  readonly initial: MmConfig;
  readonly clock: Clock;
  /** Called with each applied config. Must not throw. */
  readonly onApply: (outcome: Extract<ReloadOutcome, { ok: true }>) => void;
  /** Called when a reload is rejected; the old params stay in force. */
  readonly onReject: (error: ConfigError) => void;
  readonly watcher?: FileWatcher;
  /** Coalesces the bursts of events an editor's save produces. Default 300 ms. */
  readonly debounceMs?: number;
}

/**
 * Applies config changes to a running daemon: on SIGHUP (the daemon calls {@link reload}) and
 * when a config file changes. Each reload validates everything first and then swaps the strategy
 * and risk sections in one assignment, so a cycle sees either the old params or the new ones.
 * Lifecycle: `start()` / `close()`.
 */
export class ConfigReloader {
  private current: MmConfig;
  private watchers: { close(): void }[] = [];
  private pending: TimerHandle | null = null;
  private readonly debounceMs: number;

  constructor(private readonly opts: ConfigReloaderOptions) {
    this.current = opts.initial;
    this.debounceMs = opts.debounceMs ?? 300;
  }

  /** The config in force. */
  get config(): MmConfig {
    return this.current;
  }

  /** Starts watching every config layer. */
  start(): void {
    if (this.watchers.length > 0) return;
    const watcher = this.opts.watcher ?? fsWatcher;
    for (const layer of configLayers(this.opts.load)) {
      this.watchers.push(watcher(layer.path, () => this.schedule()));
    }
  }

  /** Reloads now; returns the outcome (also reported through the callbacks). */
  reload(): ReloadOutcome {
    const outcome = reloadConfig(this.current, this.opts.load);
    if (outcome.ok) {
      this.current = outcome.config;
      this.opts.onApply(outcome);
    } else {
      this.opts.onReject(outcome.error);
    }
    return outcome;
  }

  /** Stops watching. */
  close(): void {
    for (const w of this.watchers) w.close();
    this.watchers = [];
    if (this.pending) this.opts.clock.clearTimeout(this.pending);
    this.pending = null;
  }

  private schedule(): void {
    if (this.pending) this.opts.clock.clearTimeout(this.pending);
    this.pending = this.opts.clock.setTimeout(() => {
      this.pending = null;
      this.reload();
    }, this.debounceMs);
  }
}
