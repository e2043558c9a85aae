/**
 * What the daemon shows of itself, read-only and fresh per call: every poller's stats, positions
 * and PnL, the hedged pairs, the "exchanges" reference, the firm's parties, readiness (`/readyz`)
 * and the state view of the metrics and `/status`. Reads the daemon's parts and its run; changes
 * nothing.
 */
import { statsAs, type PollerStats } from '../../core/poller.js';
import { FirmEngine } from '../../execution/firm/firm-engine.js';
import type { PairHedgeReport } from '../../hedge/hedging.js';
import type { PairReferenceReport } from '../../market/reference/exchanges-reference.js';
import type { PartyView } from '../../observability/party-metrics.js';
import type { DaemonStateView } from '../../observability/http/state-view.js';
import type { PairPosition } from '../../portfolio/pnl.js';
import type { DaemonParts } from '../daemon-parts.js';
import type { DaemonRun } from '../daemon-run.js';
import { assessDaemonReadiness, type DaemonReadiness } from './daemon-readiness.js';
import { buildStateView } from './daemon-state.js';
import { firmPartyViews } from './party-views.js';

/** See the module doc. */
export class DaemonViews {
  constructor(
    private readonly parts: DaemonParts,
    private readonly run: DaemonRun,
  ) {}

  /** Every poller: the market's, the orders poller, and the daemon's loops. */
  pollerStats(): PollerStats[] {
    const session = this.run.session;
    const engine = session?.engine;
    const orders = engine?.ordersPoller?.poller;
    // A firm's other parties' orders pollers, named `orders_<party>` (the primary's is `orders`).
    const others =
      engine instanceof FirmEngine
        ? engine
            .ordersPollers()
            .slice(1)
            .map(({ party, poller }) => statsAs(poller.poller, `orders_${party}`))
        : [];
    return [
      ...this.parts.pollers.stats(),
      ...(orders === undefined ? [] : [orders]),
      ...others,
      ...(session?.loopStats ?? []),
    ];
  }

  /** Positions and PnL per pair, marked to the current mids. */
  positions(): PairPosition[] {
    return this.parts.markedPositions();
  }

  /** Every hedged pair's state (metrics, `/status`); empty without hedging. */
  hedgeReport(): PairHedgeReport[] {
    return this.parts.hedging?.report() ?? [];
  }

  /** The "exchanges" reference of every pair that has one, for metrics (empty without one). */
  referenceReport(): readonly PairReferenceReport[] {
    return this.parts.reference?.report() ?? [];
  }

  /** The firm's parties for metrics and `/status` (empty with one party). */
  partyReport(): PartyView[] {
    const { firm, state, clock } = this.parts;
    const engine = this.run.session?.engine;
    if (firm === null || !(engine instanceof FirmEngine)) return [];
    return firmPartyViews(
      engine,
      firm.wallets,
      this.run.session?.cycle.last?.strategy.quotes ?? [],
      (pair) => state.snapshot(clock.now()).pairs[pair],
    );
  }

  /** Ready to quote, or every reason not (the observability module's `/readyz` shape). */
  readiness(): DaemonReadiness {
    const { state, clock, live, control } = this.parts;
    const last = this.run.session?.cycle.last ?? null;
    const readiness = assessDaemonReadiness({
      phase: this.run.phase,
      preflight: this.run.preflight,
      recoveryError: this.run.fatal,
      account: state.snapshot(clock.now()).account,
      authFailing: state.authFailing,
      verdict: last?.verdict ?? null,
      stale: last?.stale ?? [],
      pairs: live.config.pairs,
      provisional: this.run.provisional?.begun === true,
    });
    const paused = control.readinessLines();
    return paused.length === 0 ? readiness : { ...readiness, paused };
  }

  /** The state for metrics and `/status`, fresh per call. */
  stateView(): DaemonStateView {
    const { state, clock, live, control, events, sideWatch } = this.parts;
    const session = this.run.session;
    return buildStateView({
      now: clock.now(),
      pairs: live.config.pairs,
      market: state,
      pollers: this.pollerStats(),
      engine: session?.engine ?? null,
      cycle: session?.cycle.last ?? null,
      risk: { state: session?.cycle.risk ?? null, params: live.params.risk },
      positions: this.positions(),
      referenceAt: (key) => events.referenceAt(key),
      lastFills: events.lastFills,
      preflightPassed: this.run.preflightPassed,
      queued: session?.dispatch.pendingIntents.length ?? 0,
      sideMissing: sideWatch.all(),
      controls: control.view(),
    });
  }
}
