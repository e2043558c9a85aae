/**
 * The config in force and the params resolved from it, replaced atomically on a reload (SIGHUP or
 * a changed config file, through the `ConfigReloader`): every layer is re-read and validated,
 * only the strategy and risk sections are taken, their params are resolved, and only then is the
 * pair `{config, params}` swapped in one assignment. The next quote cycle runs with the new
 * params; a cycle never sees a mix. An invalid file (a bad value, or a rule between keys) is
 * rejected, reported with every key at fault, and the old params stay. Credentials, venue URLs
 * and everything else outside `strategy` and `risk` never reload.
 */
import type { Clock } from '../../core/clock.js';
import { ConfigError } from '../../config/errors.js';
import { ConfigReloader, type ReloadOutcome } from '../../config/reload.js';
import type { MmConfig } from '../../config/schema.js';
import type { DaemonEvent, DaemonReloadOptions } from '../daemon-types.js';
import { resolveLiveParams, type LiveParams } from './live-params.js';

/** See the module doc. */
export class LiveConfig {
  private current: { readonly config: MmConfig; readonly params: LiveParams };
  private readonly reloader: ConfigReloader | null;

  /** Throws ConfigError when the initial strategy or risk params break a rule between keys. */
  constructor(
    config: MmConfig,
    private readonly clock: Clock,
    reload: DaemonReloadOptions | undefined,
    private readonly emit: (event: DaemonEvent) => void,
  ) {
    this.current = { config, params: resolveLiveParams(config, 1, clock.now()) };
    this.reloader =
      reload === undefined
        ? null
        : new ConfigReloader({
            load: reload.load,
            initial: config,
            clock,
            onApply: (outcome) => this.apply(outcome),
            onReject: (error) => this.reject(error),
            ...(reload.watcher === undefined ? {} : { watcher: reload.watcher }),
            ...(reload.debounceMs === undefined ? {} : { debounceMs: reload.debounceMs }),
          });
  }

  /** The config in force. */
  get config(): MmConfig {
    return this.current.config;
  }

  /** The params in force. */
  get params(): LiveParams {
    return this.current.params;
  }

  /** Starts watching the config files (SIGHUP works either way). */
  watch(): void {
    this.reloader?.start();
  }

  /** Reloads now; null when the daemon was built without reload options. */
  reload(): ReloadOutcome | null {
    return this.reloader?.reload() ?? null;
  }

  /** Stops watching. */
  close(): void {
    this.reloader?.close();
  }

  private apply(outcome: Extract<ReloadOutcome, { ok: true }>): void {
    const changed = outcome.changed.length > 0;
    const version = this.current.params.version + (changed ? 1 : 0);
    let params = this.current.params;
    try {
      if (changed) params = resolveLiveParams(outcome.config, version, this.clock.now());
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      this.reject(err);
      return;
    }
    // One assignment: the next cycle sees the new params or the old ones, never a mix.
    this.current = { config: outcome.config, params };
    const { ignored } = outcome;
    this.emit({
      type: 'config-reload',
      ok: true,
      version,
      changed: outcome.changed,
      ignored,
      at: this.clock.now(),
    });
  }

  private reject(error: ConfigError): void {
    this.emit({ type: 'config-reload', ok: false, error, at: this.clock.now() });
  }
}
