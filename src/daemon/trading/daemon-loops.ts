/**
 * The daemon's own loops, each on the shared non-overlapping {@link Poller} (a slow run delays
 * the next, never stacks): the quote cycle, every `cycleMs` (one per book update by default),
 * with the periodic summary in the log; and the account recheck, which reads GET /account every
 * `accountRecheckMs` while the account cannot trade (suspended, key failing), so trading resumes
 * soon after the operator fixes it rather than on the account's slow timer.
 */
import type { Clock } from '../../core/clock.js';
import { Poller } from '../../core/poller.js';
import type { Logger } from '../../logging/logger.js';
import type { MarketPollers } from '../../market/market-pollers.js';
import type { MarketState } from '../../market/market-state.js';
import { logSummary, type SummaryLine } from '../reporting/daemon-log.js';
import type { DaemonEvent, DaemonTuning } from '../daemon-types.js';
import type { CycleReport, QuoteCycle } from './quote-cycle.js';

/** See the module doc. */
export class DaemonLoops {
  private loops: Poller[] = [];
  private lastSummaryAt = 0;

  constructor(
    private readonly o: {
      readonly clock: Clock;
      readonly logger: Logger;
      readonly tuning: DaemonTuning;
      readonly pollers: MarketPollers;
      readonly state: MarketState;
      readonly cycle: QuoteCycle;
      readonly emit: (event: DaemonEvent) => void;
      readonly summary: (report: CycleReport) => SummaryLine[];
    },
  ) {}

  /** The loops' stats (for the pollers' lastSuccessAt in metrics). */
  get stats(): readonly Poller[] {
    return this.loops;
  }

  /** Starts both loops (the first cycle at once). */
  start(): void {
    const { clock, tuning, logger } = this.o;
    const loop = (name: string, intervalMs: number, task: () => Promise<void>): Poller =>
      new Poller({
        name,
        clock,
        intervalMs,
        task,
        onError: (err) => logger.error({ err }, `${name} loop failed`),
      });
    this.lastSummaryAt = clock.now();
    this.loops = [
      loop('quote', tuning.cycleMs, async () => this.runCycle()),
      loop('account-recheck', tuning.accountRecheckMs, () => this.recheckAccount()),
    ];
    for (const l of this.loops) l.start();
  }

  /** Stops both loops; resolves when no run is in flight. */
  async close(): Promise<void> {
    await Promise.all(this.loops.map((l) => l.close()));
  }

  private runCycle(): void {
    const report = this.o.cycle.run();
    this.o.emit({ type: 'cycle', report });
    if (report.at - this.lastSummaryAt >= this.o.tuning.summaryMs) {
      this.lastSummaryAt = report.at;
      logSummary(this.o.logger, this.o.summary(report));
    }
  }

  private async recheckAccount(): Promise<void> {
    const { state } = this.o;
    const account = state.snapshot(this.o.clock.now()).account;
    if (account !== null && account.status === 'ACTIVE' && !state.authFailing) return;
    await this.o.pollers.poller('account')?.runNow();
  }
}
