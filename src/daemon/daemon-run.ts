/**
 * What one run of the daemon has come to, read by its startup, its views and its event routing:
 * the phase (created → preflight → recovering → running → closing → closed, or failed), the
 * preflight's last report, the recovery's fatal error, the trading session once the engine is
 * attached, and the provisional start while one is under way. A phase change is reported as a
 * `daemon-phase` event.
 */
import type { Clock } from '../core/clock.js';
import type { DaemonEvent, DaemonPhase } from './daemon-types.js';
import type { PreflightReport } from './startup/preflight.js';
import type { ProvisionalStart } from './startup/provisional-start.js';
import type { TradingSession } from './trading/trading-session.js';

/** See the module doc. */
export class DaemonRun {
  /** The preflight's last report (null before the first). */
  preflight: PreflightReport | null = null;
  /** Why the recovery failed for good (the phase is then `failed`). */
  fatal: string | null = null;
  /** The engine's trading session once attached; null before, and after a provisional start is undone. */
  session: TradingSession | null = null;
  /** The provisional start while the preflight still reads the balances. */
  provisional: ProvisionalStart | null = null;
  private current: DaemonPhase = 'created';

  constructor(
    private readonly clock: Clock,
    private readonly emit: (event: DaemonEvent) => void,
  ) {}

  get phase(): DaemonPhase {
    return this.current;
  }

  /** Moves to `phase`, reporting it (a repeat is no change). */
  setPhase(phase: DaemonPhase): void {
    if (this.current === phase) return;
    this.current = phase;
    this.emit({ type: 'daemon-phase', phase, at: this.clock.now() });
  }

  /** True when the preflight has passed (fees exempt, `/status`). */
  get preflightPassed(): boolean {
    return this.preflight?.ok === true;
  }
}
