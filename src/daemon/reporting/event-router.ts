/**
 * Where every daemon event goes: to the log (a poll failure once per streak of a poller, a
 * refused key not at all: the key's alarm tells it once), to the observers (`subscribe`), and to
 * the parts that follow events: the key's watch, the pipeline's cycle estimate, the provisional
 * start (a refused placement), pause and resume (the kill switch after each cycle), the parties'
 * funding watch, the hedging (a fill wakes its pair), and the side-missing watch. The watches'
 * own events go round again.
 */
import type { Logger } from '../../logging/logger.js';
import type { DaemonParts } from '../daemon-parts.js';
import type { DaemonRun } from '../daemon-run.js';
import type { DaemonEvent } from '../daemon-types.js';
import { AuthWatch } from './auth-watch.js';
import { logDaemonEvent } from './daemon-log.js';
import type { DaemonViews } from './daemon-views.js';
import { awaitingOrders } from './side-missing-cause.js';

/** See the module doc. */
export class DaemonEventRouter {
  constructor(
    private readonly logger: Logger,
    private readonly parts: DaemonParts,
    private readonly run: DaemonRun,
    private readonly views: DaemonViews,
  ) {}

  /** Routes `event`; see the module doc. */
  emit(event: DaemonEvent): void {
    const p = this.parts;
    if (!this.quietPollFailure(event)) logDaemonEvent(this.logger, p.events.logContext, event);
    p.observers.emit(event);
    p.authWatch.observe(event, p.clock.now());
    if (event.type === 'stage') p.pipelineCycle.observe(event.stage, event.ms, event.ok);
    if (event.type === 'placement') this.run.provisional?.onPlacement(event.outcome);
    if (event.type === 'cycle') p.control.observeCycle(event.report);
    if (event.type === 'cycle' && p.firm !== null) {
      for (const e of p.fundingWatch.observe(this.views.partyReport(), event.report.at)) this.emit(e);
    }
    if (event.type === 'fill') p.hedging?.onFill(event.inventory.pair);
    const session = this.run.session;
    if (event.type === 'cycle' && session !== null) {
      const awaiting = awaitingOrders(session.engine, event.report.at - p.pipelineCycle.estimateMs);
      for (const e of p.sideWatch.observe(event.report, awaiting)) this.emit(e);
    }
  }

  /** A poll failure already logged in its streak, or a refused key (see the module doc). */
  private quietPollFailure(event: DaemonEvent): boolean {
    if (event.type !== 'poll-failed' && event.type !== 'market-poll-failed') return false;
    if (AuthWatch.isKeyRefusal(event.error)) return true;
    return (
      event.type === 'poll-failed' &&
      (this.run.session?.engine.ordersPoller?.poller.consecutiveFailures ?? 0) > 1
    );
  }
}
