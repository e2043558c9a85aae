/**
 * The API key file (`venue.apiKeyFile`), re-read on SIGHUP and when the file changes, so an
 * operator can rotate a reissued key without a restart: the venue client uses the new key from
 * its next call (calls in flight finish with the old one), and nothing about the orders changes —
 * the journal, the registry and the resolver carry on. A file that cannot be read or does not
 * hold a key is logged (never its content) and the old key stays. A key from the environment
 * (LEDGER_MM_API_KEY) takes precedence and is never rotated.
 */
import path from 'node:path';
import type { Clock, TimerHandle } from '../../core/clock.js';
import { ConfigError } from '../../config/errors.js';
import { resolveApiKey } from '../../config/load.js';
import { fsWatcher, type FileWatcher } from '../../config/reload.js';
import type { Logger } from '../../logging/logger.js';
import { apiKeyHandle } from '../../logging/redact.js';
import type { VenueClient } from '../../venue/client.js';
import type { DaemonOptions } from '../daemon-types.js';

/** See the module doc. */
export class ApiKeyFile {
  private current: string;
  private watcher: { close(): void } | null = null;
  private timer: TimerHandle | null = null;

  constructor(
    private readonly o: {
      /** The file, absolute or relative to `cwd`. */
      readonly file: string;
      readonly cwd: string;
      /** The key in use now. */
      readonly initial: string;
      readonly clock: Clock;
      readonly logger: Logger;
      /** Applies a new key (the venue client's `setApiKey`). */
      readonly apply: (apiKey: string) => void;
      readonly handle: (apiKey: string) => string;
      readonly watcher?: FileWatcher;
      /** Editors write in steps: changes are coalesced for this long. Default 300 ms. */
      readonly debounceMs?: number;
    },
  ) {
    this.current = o.initial;
  }

  /** Re-reads the file; returns whether the key changed. Never throws. */
  reload(why: string): boolean {
    let key: string;
    try {
      key = resolveApiKey({ apiKey: '', apiKeyFile: this.o.file }, this.o.cwd);
    } catch (err) {
      const reason = err instanceof ConfigError ? err.issues.map((i) => i.reason).join('; ') : String(err);
      this.o.logger.error(
        { file: this.o.file },
        `${why}: API key file not used, the old key stays: ${reason}`,
      );
      return false;
    }
    if (key === this.current) return false;
    try {
      this.o.apply(key);
    } catch (err) {
      this.o.logger.error({ file: this.o.file }, `${why}: the new API key was refused: ${String(err)}`);
      return false;
    }
    const from = this.o.handle(this.current);
    this.current = key;
    this.o.logger.info(
      { file: this.o.file, from, to: this.o.handle(key) },
      `${why}: API key rotated from ${from} to ${this.o.handle(key)}`,
    );
    return true;
  }

  /** Watches the file (SIGHUP works either way). */
  watch(): void {
    if (this.watcher !== null) return;
    const watcher = this.o.watcher ?? fsWatcher;
    this.watcher = watcher(path.resolve(this.o.cwd, this.o.file), () => this.schedule());
  }

  /** Stops watching. */
  close(): void {
    this.watcher?.close();
    this.watcher = null;
    if (this.timer !== null) this.o.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (this.timer !== null) this.o.clock.clearTimeout(this.timer);
    this.timer = this.o.clock.setTimeout(() => {
      this.timer = null;
      this.reload('API key file changed');
    }, this.o.debounceMs ?? 300);
  }
}

/**
 * The API key file to re-read on SIGHUP and on change: only with reload options, a configured
 * `venue.apiKeyFile`, and no key from the environment (which takes precedence).
 */
export function apiKeyFileOf(o: DaemonOptions, venue: VenueClient): ApiKeyFile | null {
  const load = o.reload?.load;
  const file = o.config.venue.apiKeyFile;
  if (load === undefined || file === '' || (load.env['LEDGER_MM_API_KEY'] ?? '').trim() !== '') return null;
  return new ApiKeyFile({
    file,
    cwd: load.cwd,
    initial: o.config.venue.apiKey,
    clock: o.clock,
    logger: o.logger,
    apply: (key) => venue.setApiKey(key),
    handle: (key) => apiKeyHandle(key),
    ...(o.reload?.watcher === undefined ? {} : { watcher: o.reload.watcher }),
    ...(o.reload?.debounceMs === undefined ? {} : { debounceMs: o.reload.debounceMs }),
  });
}
