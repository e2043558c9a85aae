/**
 * The daemon's log: one line per thing a person watching the terminal cares about — placements,
 * fills with the position and PnL after them, refusals, alarms, poller trouble, reloads — and a
 * periodic summary per pair. Everything else (stages, queue figures, transitions, routine
 * cancels) is debug. Every line is a sentence with its fields; {@link terseInfo} drops the fields
 * of info lines for a terminal. Secrets never reach it: the logger redacts, and nothing here logs a
 * key, a token or a signature.
 */
import { toWire } from '../../core/decimal.js';
import type { Dec } from '../../core/decimal.js';
import { formatConfigError } from '../../config/errors.js';
import type { PlacementOutcome } from '../../execution/execution-events.js';
import type { Logger } from '../../logging/logger.js';
import type { TrackedOrder } from '../../orders/fsm/index.js';
import type { DaemonEvent } from '../daemon-types.js';
import { VenueError } from '../../venue/errors.js';
import type { PairPosition } from '../../portfolio/pnl.js';

/** What the log needs from the daemon besides the event. */
export interface LogContext {
  /** The position of a pair now (after the fill just logged). */
  readonly position: (pair: string) => PairPosition | undefined;
  /** Base and quote instrument of a pair. */
  readonly instruments: (pair: string) => { base: string; quote: string };
  /** A tracked order by key. */
  readonly order: (key: string) => TrackedOrder | undefined;
}

type Level = 'debug' | 'info' | 'warn' | 'error';

const QUIET: ReadonlySet<PlacementOutcome['kind']> = new Set(['superseded', 'not-wanted', 'aborted']);

function signed(d: Dec): string {
  return d.isNeg() ? d.toFixed() : `+${d.toFixed()}`;
}

function say(log: Logger, level: Level, fields: Record<string, unknown>, msg: string): void {
  log[level](fields, msg);
}

/**
 * For a terminal: a logger whose info lines are the sentence alone (their fields dropped), so
 * pretty output stays one line per event. Warnings and errors keep their fields. Built like a
 * pino child (`Object.create`), so everything else is the logger's own.
 */
export function terseInfo(logger: Logger): Logger {
  const terse = Object.create(logger) as Logger;
  terse.info = (first: unknown, ...rest: unknown[]): void => {
    const msg = rest[0];
    if (typeof first === 'object' && first !== null && typeof msg === 'string') logger.info(msg);
    else Reflect.apply(logger.info, logger, [first, ...rest]);
  };
  return terse;
}

/** Logs one event. Never throws. */
export function logDaemonEvent(log: Logger, ctx: LogContext, e: DaemonEvent): void {
  try {
    write(log, ctx, e);
  } catch {
    // A log line must never break the daemon.
  }
}

function write(log: Logger, ctx: LogContext, e: DaemonEvent): void {
  switch (e.type) {
    case 'placement': {
      const o = e.outcome;
      const fields = { slot: o.slot, key: o.key, orderId: o.orderId, kind: o.kind, ms: e.ms };
      const order = o.key === null ? undefined : ctx.order(o.key);
      const what =
        order === undefined
          ? o.slot
          : `${order.side} ${order.quantity.toFixed()} ${order.pair} @ ${order.price?.toFixed() ?? 'market'}`;
      if (o.kind === 'placed') say(log, 'info', fields, `placed ${what} in ${(e.ms / 1000).toFixed(1)} s`);
      else if (QUIET.has(o.kind)) say(log, 'debug', fields, `placement ${o.kind}: ${o.slot}`);
      else if (o.kind === 'unresolved')
        say(log, 'info', fields, `${what}: outcome pending, read until known`);
      else
        say(
          log,
          'warn',
          { ...fields, outcome: describeOutcome(o) },
          `placement of ${what}: ${describeOutcome(o)}`,
        );
      return;
    }
    case 'cancel': {
      const o = e.outcome;
      const routine =
        o.kind === 'cancelled' || o.kind === 'filled' || o.kind === 'deferred' || o.kind === 'ended';
      say(
        log,
        routine ? 'debug' : 'warn',
        { key: o.key, orderId: o.orderId, kind: o.kind, ms: e.ms },
        `cancel of ${o.key}: ${o.kind}`,
      );
      return;
    }
    case 'fill': {
      const f = e.fill;
      const { base, quote } = ctx.instruments(f.pair);
      const p = ctx.position(f.pair);
      const price = f.price === null ? 'market' : f.price.toFixed();
      const after =
        p === undefined
          ? ''
          : ` — position ${signed(p.base)} ${base}, PnL ${p.pnl.toDecimalPlaces(2).toFixed()} ${quote}`;
      const fields = { pair: f.pair, side: f.side, price, quantity: toWire(f.quantity), orderId: f.orderId };
      say(log, 'info', fields, `fill ${f.side} ${f.quantity.toFixed()} ${f.pair} @ ${price}${after}`);
      return;
    }
    case 'alarm':
      say(
        log,
        'error',
        { reason: e.reason, key: e.key, detail: e.detail },
        `alarm: ${e.reason}: ${e.detail}`,
      );
      return;
    case 'signing-unverified':
      say(
        log,
        'warn',
        { operation: e.operation, key: e.key, reason: e.reason, detail: e.detail },
        `signing a hash whose prepared transaction was not verified (${e.reason}: ${e.detail}); ` +
          'the echo check alone decided. signing.verifyPrepared=required refuses instead. Shown once.',
      );
      return;
    case 'order-alarm':
      say(
        log,
        'warn',
        { key: e.order.key, reason: e.alarm.reason },
        `order ${e.order.key}: ${e.alarm.reason}`,
      );
      return;
    case 'foreign-order':
      say(
        log,
        'warn',
        { orderId: e.order.orderId, action: e.action },
        `an order this journal did not place: ${e.action}`,
      );
      return;
    case 'recovered': {
      const r = e.report;
      const fields = { restored: r.restored, pending: r.pending.length, cancels: r.cancels.length };
      say(
        log,
        'info',
        fields,
        `recovery: ${r.restored} order(s) restored from the journal, ${r.pending.length} pending`,
      );
      return;
    }
    case 'poll-failed':
    case 'market-poll-failed':
      // An expected venue error is its code, not a stack trace; anything else is a bug to trace.
      if (e.error instanceof VenueError)
        say(
          log,
          'warn',
          { poller: e.poller, code: e.error.code, status: e.error.status },
          `poll of ${e.poller} failed: ${e.error.code}`,
        );
      else say(log, 'warn', { poller: e.poller, err: e.error }, `poll of ${e.poller} failed`);
      return;
    case 'party-state':
      if (e.active)
        say(log, 'info', { party: e.party }, `party ${e.party} is back: it takes placements again`);
      else
        say(
          log,
          'warn',
          { party: e.party, reason: e.reason },
          `party ${e.party} dropped out: ${e.reason ?? 'unknown'}; the other parties carry on`,
        );
      return;
    case 'party-funding':
      if (e.ok)
        say(
          log,
          'info',
          { party: e.party, pair: e.pair, side: e.side },
          `party ${e.party} can fund ${e.pair} ${e.side} again`,
        );
      else
        say(
          log,
          'warn',
          { party: e.party, pair: e.pair, side: e.side },
          `party ${e.party} can no longer fund a ${e.pair} ${e.side} quote (a ${e.side === 'BUY' ? 'BUY locks quote' : 'SELL locks base'}); the others place it. Rebalance the parties on the ledger: docs/operations/parties.md`,
        );
      return;
    case 'config-reload':
      if (e.ok) say(log, 'info', { version: e.version, changed: e.changed, ignored: e.ignored }, reloaded(e));
      else
        log.error(
          { issues: e.error.issues },
          `config reload rejected, old params kept:\n${formatConfigError(e.error)}`,
        );
      return;
    case 'side-missing':
      say(
        log,
        'warn',
        {
          pair: e.pair,
          side: e.side,
          reason: e.cause.reason,
          detail: e.cause.detail,
          missingMs: e.missingMs,
        },
        `${e.pair}: no ${e.side === 'BUY' ? 'bid' : 'ask'} for ${(e.missingMs / 1000).toFixed(0)} s: ` +
          `${e.cause.reason} (${e.cause.detail})`,
      );
      return;
    case 'side-restored':
      say(
        log,
        'info',
        { pair: e.pair, side: e.side, missingMs: e.missingMs },
        `${e.pair}: ${e.side === 'BUY' ? 'bid' : 'ask'} back after ${(e.missingMs / 1000).toFixed(0)} s`,
      );
      return;
    case 'daemon-phase':
      say(
        log,
        e.phase === 'closed' || e.phase === 'running' ? 'info' : 'debug',
        { phase: e.phase },
        `daemon ${e.phase}`,
      );
      return;
    default:
      return;
  }
}

function reloaded(e: { changed: readonly string[]; ignored: readonly string[]; version: number }): string {
  const changed =
    e.changed.length === 0 ? 'nothing changed' : `params v${e.version}: ${e.changed.join(', ')}`;
  const ignored = e.ignored.length === 0 ? '' : `; needs a restart: ${e.ignored.join(', ')}`;
  return `config reloaded, ${changed}${ignored}`;
}

function describeOutcome(o: PlacementOutcome): string {
  switch (o.kind) {
    case 'refused':
    case 'failed':
      return `${o.kind} ${o.code}`;
    case 'slot-busy':
      return `slot busy (${o.occupantState})`;
    case 'rate-limited':
      return `rate limited, retry after ${o.retryAfterMs} ms`;
    case 'no-party':
      return `no party can place it: ${o.detail}`;
    default:
      return o.kind;
  }
}

/** One pair's line of the periodic summary. */
export interface SummaryLine {
  readonly pair: string;
  /** Our best resting bid and ask, or null. */
  readonly bid: string | null;
  readonly ask: string | null;
  /** Why a side has no quote (`reason: detail`), shown instead of its price. */
  readonly bidMissing?: string | null;
  readonly askMissing?: string | null;
  readonly position: PairPosition;
  readonly base: string;
  readonly quote: string;
}

/** The periodic summary: per pair the quotes on the book, the position and the PnL. */
export function logSummary(log: Logger, lines: readonly SummaryLine[]): void {
  for (const l of lines) {
    const p = l.position;
    const fields = {
      pair: l.pair,
      bid: l.bid,
      ask: l.ask,
      base: toWire(p.base),
      pnl: toWire(p.pnl.toDecimalPlaces(8)),
    };
    say(
      log,
      'info',
      fields,
      `${l.pair}: bid ${quoted(l.bid, l.bidMissing)} / ask ${quoted(l.ask, l.askMissing)}, ` +
        `position ${signed(p.base)} ${l.base}, ` +
        `PnL ${p.pnl.toDecimalPlaces(2).toFixed()} ${l.quote} (${p.fills} fills)`,
    );
  }
}

function quoted(price: string | null, missing: string | null | undefined): string {
  if (price !== null) return price;
  return missing === null || missing === undefined ? '—' : `— (${missing})`;
}
