/**
 * The daemon's operator controls: the pause set ({@link PauseBook}) the quote cycle reads, the
 * control endpoint's requests (`POST /control/pause`, `/control/resume`, `GET /control`), and the
 * kill switch (`risk.killSwitch`), judged after each quote cycle on the day's PnL
 * (`src/risk/kill-switch.ts`). Every change is logged with who asked; a kill switch trip is
 * logged at ERROR and shows as `ledger_mm_paused{reason="kill_switch"}` (the alert's input).
 *
 * A pause reaches the book through the quoting: the next cycle plans no quote in the paused
 * scope, the reconciler cancels what rests there through the cancel pool, and the pipeline's
 * freshness check drops what was queued there. The daily loss halt (the risk gate's, until the UTC
 * day ends) is shown beside the pauses, the same way.
 */
import type { Clock } from '../../core/clock.js';
import { SIDES, type Side } from '../../core/order-terms.js';
import type { Dec } from '../../core/decimal.js';
import type { Logger } from '../../logging/logger.js';
import type { ControlAnswer, ControlRequest } from '../../observability/http/control-route.js';
import type { ControlCredential } from '../../observability/http/control-auth.js';
import type { ControlsView, HeldSideView } from '../../observability/http/state-view.js';
import { DAY_MS, utcDay } from '../../risk/daily-loss-guard.js';
import {
  KILL_SWITCH_MEMORY_KEY,
  armingChanged,
  decodeKillSwitch,
  encodeKillSwitch,
} from '../../risk/kill-switch-codec.js';
import type { MetaStore } from '../../risk/risk-memory.js';
import {
  initialKillSwitch,
  killSwitchOff,
  stepKillSwitch,
  type KillSwitchParams,
  type KillSwitchState,
} from '../../risk/kill-switch.js';
import {
  describeScope,
  pauseOf,
  type PauseEntry,
  type PauseScope,
  type PauseSet,
} from '../../risk/pause-set.js';
import { riskInputs } from '../../portfolio/pnl.js';
import type { CycleReport } from '../trading/quote-cycle.js';
import { ControlNotReady, PauseBook, type ControlLogPort } from './pause-book.js';

/** Options of {@link DaemonControl}. */
export interface DaemonControlOptions {
  readonly clock: Clock;
  readonly logger: Logger;
  /** The configured pairs. */
  readonly pairs: () => readonly string[];
  /** `risk.killSwitch` in force. */
  readonly killSwitch: () => KillSwitchParams;
  /** The engine's control log once its journal is open, else null. */
  readonly log: () => ControlLogPort | null;
  /** The journal's meta once open, else null: where the kill switch keeps its arming. */
  readonly meta?: () => MetaStore | null;
  /** The control endpoint's token (null: loopback callers only). */
  readonly credential?: ControlCredential | null;
}

/** See the module doc. */
export class DaemonControl {
  private readonly book: PauseBook;
  private switchState: KillSwitchState;
  private switchPnl: Readonly<Record<string, Dec>> = {};
  private last: CycleReport | null = null;
  /** The kill switch's stored state has been read (once, when the journal first opens). */
  private restored = false;
  /** The endpoint's credential (set by the observability wiring). */
  credential: ControlCredential | null;

  constructor(private readonly o: DaemonControlOptions) {
    this.credential = o.credential ?? null;
    this.switchState = initialKillSwitch(o.clock.now());
    this.book = new PauseBook({
      clock: o.clock,
      log: o.log,
      onLogError: (what, err) => o.logger.error({ err }, `control: ${what} failed`),
    });
  }

  /** The pauses in force (the quote cycle's input). */
  pauses(): PauseSet {
    return this.book.pauses();
  }

  /** After each quote cycle: the kill switch judges the day's PnL, and the daily loss halts are noted. */
  observeCycle(report: CycleReport): void {
    this.last = report;
    const params = this.o.killSwitch();
    const daily = report.verdict.state.dailyLoss;
    const pnl = riskInputs(report.positions).pnl;
    const dailyPnl: Record<string, Dec> = {};
    for (const pair of this.o.pairs()) {
      const now = pnl[pair];
      const base = daily?.baseline[pair];
      if (now !== undefined && now !== null && base !== undefined) dailyPnl[pair] = now.minus(base);
    }
    const quoteOf = (pair: string): string =>
      report.snapshot.pairs[pair]?.quote ?? pair.split('/')[1] ?? pair;
    const switchPauses = this.book.pauses().filter((e) => e.reason === 'kill-switch');
    const meta = this.restore(report.at);
    const before = this.switchState;
    const step = stepKillSwitch(
      this.switchState,
      {
        dailyPnl,
        pairs: this.o.pairs(),
        quoteOf,
        held: (key) =>
          switchPauses.some((e) => e.pair === null || (params.scope === 'pair' && e.pair === key)),
        now: report.at,
      },
      params,
    );
    // The last known figure per key, this UTC day's (a key unknown this step keeps its last).
    this.switchPnl = step.state.day === this.switchState.day ? { ...this.switchPnl, ...step.pnl } : step.pnl;
    this.switchState = step.state;
    if (meta !== null && armingChanged(before, step.state)) {
      try {
        meta.set(KILL_SWITCH_MEMORY_KEY, encodeKillSwitch(step.state));
      } catch (err) {
        this.o.logger.error({ err }, "control: saving the kill switch's state failed (it holds in memory)");
      }
    }
    for (const trip of step.trips) {
      const scope: PauseScope = { pair: trip.pair, side: null };
      const { journaled } = this.book.trip(scope, `${trip.rule}: ${trip.detail}`);
      this.o.logger.error(
        { control: 'pause', scope: describeScope(scope), reason: 'kill-switch', rule: trip.rule, journaled },
        `kill switch tripped (${trip.rule}): ${describeScope(scope)} paused, its quotes cancelled; ` +
          `${trip.detail}. It stays paused until \`ledger-mm resume\``,
      );
    }
  }

  /**
   * The journal's meta, the first time it is open: the kill switch's state of this UTC day is
   * read back from it (where each watch was armed, whether it had tripped). Null before it opens.
   */
  private restore(now: number): MetaStore | null {
    let meta: MetaStore | null = null;
    try {
      meta = this.o.meta?.() ?? null;
      if (meta === null || this.restored) return meta;
      this.restored = true;
      const text = meta.get(KILL_SWITCH_MEMORY_KEY);
      const state = text === undefined ? null : decodeKillSwitch(text, utcDay(now));
      if (state !== null) this.switchState = state;
    } catch (err) {
      this.o.logger.warn(
        { err },
        "control: the kill switch's stored state could not be read; the day starts afresh",
      );
    }
    return meta;
  }

  /** A control endpoint request, already authorised. */
  handle(request: ControlRequest): ControlAnswer {
    if (request.action === 'state') return { status: 200, body: this.document() };
    const scope = this.scopeOf(request.body);
    if (typeof scope === 'string') return refuse(400, 'bad-request', scope);
    try {
      if (request.action === 'pause') {
        const entry = this.book.pause(scope, request.who);
        this.o.logger.warn(
          { control: 'pause', scope: describeScope(scope), by: request.who },
          `paused ${describeScope(scope)} (asked by ${request.who}): its quotes are cancelled, nothing is placed there until a resume`,
        );
        return {
          status: 200,
          body: { status: 'ok', action: 'pause', paused: pauseJson(entry), ...this.document() },
        };
      }
      const { lifted, still } = this.book.resume(scope, request.who);
      this.o.logger.warn(
        {
          control: 'resume',
          scope: describeScope(scope),
          by: request.who,
          lifted: lifted.map(describeScope),
          still: still.map(describeScope),
        },
        `resumed ${describeScope(scope)} (asked by ${request.who}): ` +
          (lifted.length === 0
            ? 'nothing was paused there'
            : `lifted ${lifted.map(describeScope).join(', ')}`) +
          (still.length === 0 ? '' : `; still paused by ${still.map(describeScope).join(', ')}`),
      );
      return {
        status: 200,
        body: {
          status: 'ok',
          action: 'resume',
          lifted: lifted.map(pauseJson),
          stillPaused: still.map(pauseJson),
          ...this.document(),
        },
      };
    } catch (err) {
      if (err instanceof ControlNotReady) return refuse(503, 'not-ready', err.message);
      this.o.logger.error({ err }, `control: ${request.action} failed`);
      return refuse(500, 'journal', `the change could not be journaled, so it was not made: ${String(err)}`);
    }
  }

  /** The controls for `/status` and the metrics. */
  view(): ControlsView {
    const set = this.book.pauses();
    const params = this.o.killSwitch();
    const daily = this.last?.verdict.state.dailyLoss ?? null;
    const held: HeldSideView[] = [];
    for (const pair of this.o.pairs()) {
      for (const side of SIDES) {
        const p = pauseOf(set, pair, side);
        const halt = daily?.halted[pair];
        if (p !== null) held.push({ pair, side, ...heldBy(p) });
        else if (halt !== undefined && daily !== null) {
          held.push({
            pair,
            side,
            reason: 'daily-loss',
            by: 'risk.dailyLoss',
            since: null,
            until: (daily.day + 1) * DAY_MS,
            detail: halt,
          });
        }
      }
    }
    return {
      pauses: set.map((e) => ({ scope: describeScope(e), ...heldBy(e), pair: e.pair, side: e.side })),
      held,
      killSwitch: {
        enabled: !killSwitchOff(params),
        scope: params.scope,
        drawdown: params.drawdown,
        profitLock: params.profitLock,
        watches: Object.entries(this.switchState.marks).flatMap(([key, m]) => {
          const pnl = this.switchPnl[key];
          return pnl === undefined
            ? []
            : [{ key, pnl, peak: m.peak, armedAt: m.armedAt, tripped: m.tripped }];
        }),
      },
    };
  }

  /** `/readyz`'s lines: what is held on purpose (it does not make the daemon not ready). */
  readinessLines(): string[] {
    const v = this.view();
    const lines = v.pauses.map(
      (p) => `${p.scope}: paused (${p.reason}, by ${p.by}${p.detail === '' ? '' : `: ${p.detail}`})`,
    );
    const halted = new Set<string>();
    for (const h of v.held) {
      if (h.reason !== 'daily-loss' || halted.has(h.pair)) continue;
      halted.add(h.pair);
      lines.push(`${h.pair}: halted until ${new Date(h.until ?? 0).toISOString()} (daily-loss: ${h.detail})`);
    }
    return lines;
  }

  private document(): Record<string, unknown> {
    const v = this.view();
    return {
      pauses: v.pauses.map((p) => ({ ...p, since: new Date(p.since).toISOString() })),
      killSwitch: {
        ...v.killSwitch,
        drawdown: v.killSwitch.drawdown?.toFixed() ?? null,
        profitLock: v.killSwitch.profitLock?.toFixed() ?? null,
        watches: v.killSwitch.watches.map((w) => ({
          ...w,
          pnl: w.pnl.toFixed(),
          peak: w.peak.toFixed(),
          armedAt: w.armedAt.toFixed(),
        })),
      },
      ready: this.book.ready,
    };
  }

  /** The scope of a request body, or why it is refused. */
  private scopeOf(body: unknown): PauseScope | string {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return 'the body must be a JSON object: {"pair"?: "BTC/USDC", "side"?: "BUY" | "SELL"}';
    const { pair = null, side = null, ...rest } = body as Record<string, unknown>;
    const unknown = Object.keys(rest);
    if (unknown.length > 0) return `unknown field(s) ${unknown.join(', ')}: only pair and side`;
    if (pair !== null && (typeof pair !== 'string' || !this.o.pairs().includes(pair)))
      return `pair ${JSON.stringify(pair)} is not one of the configured pairs (${this.o.pairs().join(', ')})`;
    if (side !== null && !SIDES.includes(side as Side))
      return `side ${JSON.stringify(side)} must be BUY or SELL`;
    return { pair: pair, side: side as Side | null };
  }
}

function heldBy(
  e: PauseEntry,
): Pick<HeldSideView, 'reason' | 'by' | 'since' | 'until' | 'detail'> & { since: number } {
  return { reason: e.reason, by: e.by, since: e.at, until: null, detail: e.detail };
}

function pauseJson(e: PauseEntry): Record<string, unknown> {
  return { scope: describeScope(e), ...heldBy(e), since: new Date(e.at).toISOString() };
}

function refuse(status: number, error: string, message: string): ControlAnswer {
  return { status, body: { status: 'error', error, message } };
}
