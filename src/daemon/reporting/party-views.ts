/**
 * The firm's parties as the operator sees them (metrics, `/status`): each party's state from the
 * firm engine, its balances as last read, what it can still lock, and per pair and side whether
 * it holds enough to fund one quote of the size the strategy last asked for: its last read's
 * `available` plus `locked` of the instrument, so funds its own quotes hold count as funding
 * (a party whose base all rests in its own asks is quoting, not drifting). The funding watch
 * turns a side a party has not been able to fund for a minute into one `party-funding` event (a
 * WARN in the log), and its return into another: fills move base into some parties and quote
 * into others, and the venue has no transfers, so an operator rebalances on the ledger
 * (`docs/operations/parties.md`).
 */
import { Dec, ZERO } from '../../core/decimal.js';
import type { Side } from '../../core/order-terms.js';
import type { FirmEngine } from '../../execution/firm/firm-engine.js';
import type { PartyWallets } from '../../execution/firm/party-wallets.js';
import type { PartyView } from '../../observability/party-metrics.js';
import type { DesiredQuote } from '../../strategy/quote-types.js';

/** A party's side it can no longer fund, or can again. */
export interface PartyFundingEvent {
  readonly type: 'party-funding';
  readonly party: string;
  readonly pair: string;
  readonly side: Side;
  readonly ok: boolean;
  readonly at: number;
}

/** Each party's view; see the module doc. */
export function firmPartyViews(
  engine: Pick<FirmEngine, 'report'>,
  wallets: PartyWallets,
  quotes: readonly DesiredQuote[],
  pairOf: (pair: string) => { readonly base: string; readonly quote: string } | undefined,
): PartyView[] {
  // The largest quote the strategy asked for, per pair and side: what one more placement needs.
  const need = new Map<string, { pair: string; side: Side; instrument: string; amount: Dec }>();
  for (const q of quotes) {
    const p = pairOf(q.pair);
    if (p === undefined) continue;
    const amount = q.side === 'BUY' ? q.price.times(q.quantity) : q.quantity;
    const key = `${q.pair}:${q.side}`;
    const cur = need.get(key);
    if (cur === undefined || amount.gt(cur.amount))
      need.set(key, { pair: q.pair, side: q.side, instrument: q.side === 'BUY' ? p.quote : p.base, amount });
  }
  return engine.report().map((r) => {
    const balances: Record<string, string> = {};
    const last = wallets.last(r.name);
    // What the party holds of each instrument: free, or locked in its own orders.
    const held = new Map<string, Dec>();
    for (const b of last?.balances ?? []) {
      balances[b.instrument] = b.available;
      held.set(b.instrument, new Dec(b.available).plus(new Dec(b.locked)));
    }
    const funds: Record<string, string> = {};
    for (const [instrument, v] of r.funds ?? []) funds[instrument] = v.toFixed();
    const canFund = [...need.values()].map((n) => ({
      pair: n.pair,
      side: n.side,
      ok: last === undefined || (held.get(n.instrument) ?? ZERO).gte(n.amount),
    }));
    return {
      name: r.name,
      active: r.active,
      reason: r.reason,
      queued: r.queued,
      busyMs: r.busyMs,
      openOrders: r.openOrders,
      placed: r.placed,
      refused: r.refused,
      balances,
      funds,
      canFund,
    };
  });
}

/**
 * Edges of each party's funding per pair and side; see the module doc. A side counts as
 * unfunded once it has stayed so for `holdMs` (a party's funds dip while its own placements are
 * on their way: the figure errs low), and as funded again at once.
 */
export class FundingWatch {
  /** Since when each side is unfunded (absent: funded), and whether that was reported. */
  private readonly unfunded = new Map<string, { since: number; reported: boolean }>();

  constructor(private readonly holdMs = 60_000) {}

  /** The changes since the last call. */
  observe(parties: readonly PartyView[], at: number): PartyFundingEvent[] {
    const out: PartyFundingEvent[] = [];
    for (const p of parties) {
      for (const c of p.canFund) {
        const key = `${p.name}\u0000${c.pair}\u0000${c.side}`;
        const state = this.unfunded.get(key);
        const event = { type: 'party-funding' as const, party: p.name, pair: c.pair, side: c.side, at };
        if (c.ok) {
          if (state?.reported === true) out.push({ ...event, ok: true });
          this.unfunded.delete(key);
        } else if (state === undefined) {
          this.unfunded.set(key, { since: at, reported: false });
        } else if (!state.reported && at - state.since >= this.holdMs) {
          state.reported = true;
          out.push({ ...event, ok: false });
        }
      }
    }
    return out;
  }
}
