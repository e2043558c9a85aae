/**
 * Process signals, through an injected seam (the real `process`, or an EventEmitter in tests):
 *
 * - SIGTERM or SIGINT: the graceful stop (`Daemon.close`: no new placements, the in-flight
 *   submission finishes, every order is cancelled unless `shutdown.cancelOrders` is false), then
 *   exit 0 — or 1 when the stop hit its bound (`shutdown.graceMs`) or failed;
 * - a second SIGTERM or SIGINT during the stop: exit at once (130 after SIGINT, 143 after
 *   SIGTERM). The journal is intact: every write is synchronous and fsynced before the IO it
 *   covers, and the next start's recovery settles whatever was in flight;
 * - SIGHUP: reload the strategy and risk params (ignored while stopping).
 */
import type { Logger } from '../logging/logger.js';
import type { ShutdownReport } from './daemon-types.js';

/** The signals handled. */
export const HANDLED_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
export type HandledSignal = (typeof HANDLED_SIGNALS)[number];

/** The part of `process` the daemon uses: signal listeners and exit. */
export interface ProcessSeam {
  on(signal: HandledSignal, listener: () => void): unknown;
  off(signal: HandledSignal, listener: () => void): unknown;
  /** Ends the process (the real one never returns). */
  exit(code: number): void;
}

/** What the handlers act on. */
export interface SignalTarget {
  close(): Promise<ShutdownReport>;
  reload(): unknown;
}

/** Exit codes. */
export const EXIT_CODES = { stopped: 0, cut: 1, SIGINT: 130, SIGTERM: 143 } as const;

/**
 * Installs the handlers. `onStopped` receives the exit code once the graceful stop is over; the
 * caller ends the process with it. A second signal ends the process itself (`proc.exit`).
 * Returns the uninstall.
 */
export function installSignalHandlers(
  proc: ProcessSeam,
  target: SignalTarget,
  logger: Logger,
  onStopped: (code: number) => void,
): () => void {
  let stopping = false;
  const stop = (signal: 'SIGTERM' | 'SIGINT'): void => {
    if (stopping) {
      logger.warn(
        { signal },
        `second ${signal}: exiting now; the journal is intact, recovery settles the rest`,
      );
      proc.exit(EXIT_CODES[signal]);
      return;
    }
    stopping = true;
    logger.info({ signal }, `${signal}: stopping (send it again to exit at once)`);
    target.close().then(
      (report) => onStopped(report.completed ? EXIT_CODES.stopped : EXIT_CODES.cut),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        onStopped(EXIT_CODES.cut);
      },
    );
  };
  const onTerm = (): void => stop('SIGTERM');
  const onInt = (): void => stop('SIGINT');
  const onHup = (): void => {
    if (stopping) return;
    logger.info('SIGHUP: reloading the strategy and risk params');
    try {
      target.reload();
    } catch (err) {
      logger.error({ err }, 'reload failed');
    }
  };
  proc.on('SIGTERM', onTerm);
  proc.on('SIGINT', onInt);
  proc.on('SIGHUP', onHup);
  return () => {
    proc.off('SIGTERM', onTerm);
    proc.off('SIGINT', onInt);
    proc.off('SIGHUP', onHup);
  };
}

/**
 * A {@link ProcessSeam} in front of another one, for a command that owns more than the daemon
 * (paper trading's simulated venue): it passes the real signals on, can raise one itself (a
 * timed stop), ends the process at once on a second signal's exit code (128+), and defers a
 * normal exit until {@link release}, so the command can close what it owns first.
 */
export class SignalRelay implements ProcessSeam {
  private readonly listeners = new Map<HandledSignal, Set<() => void>>();
  private readonly forwarders = new Map<HandledSignal, () => void>();
  private deferredExit: number | null = null;

  constructor(private readonly real: ProcessSeam) {
    for (const signal of HANDLED_SIGNALS) {
      const forward = (): void => this.raise(signal);
      this.forwarders.set(signal, forward);
      real.on(signal, forward);
    }
  }

  on(signal: HandledSignal, listener: () => void): this {
    const set = this.listeners.get(signal) ?? new Set();
    set.add(listener);
    this.listeners.set(signal, set);
    return this;
  }

  off(signal: HandledSignal, listener: () => void): this {
    this.listeners.get(signal)?.delete(listener);
    return this;
  }

  /** Delivers `signal` to the listeners, as if the process had received it. */
  raise(signal: HandledSignal): void {
    for (const l of [...(this.listeners.get(signal) ?? [])]) l();
  }

  exit(code: number): void {
    if (code >= 128) this.real.exit(code);
    else this.deferredExit = code;
  }

  /** Stops relaying; ends the process with the deferred exit code, if one was given. */
  release(): void {
    for (const [signal, forward] of this.forwarders) this.real.off(signal, forward);
    this.forwarders.clear();
    if (this.deferredExit !== null) this.real.exit(this.deferredExit);
  }
}
