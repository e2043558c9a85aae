/**
 * The public face of the simulated venue's engine: {@link VenueEngine} onboards accounts (wallet,
 * preapprovals, API key), exposes the prepare, submit and cancel flows, operator actions, the
 * ground-truth view and history retention, and is the market model's port (background liquidity,
 * outside takers, reference prices). Synchronous and socket-free: the router adds HTTP, latency
 * and faults, and the daemon reaches it only through its venue client.
 */
import type { Clock } from '../../core/clock.js';
import { type Dec, ZERO, dec, toWire } from '../../core/decimal.js';
import type { Side } from '../../venue/schemas.js';
import type { MarketPort } from '../market/market-port.js';
import type { Rng } from '../rng.js';
import type { Account, AccountInit } from './accounts.js';
import { type CancelPrepared, prepareCancel } from './cancellation.js';
import { EngineCore, type EngineSettings, type PairSpec, type Taker } from './engine-core.js';
import { HistoryRetention, type RetentionOptions } from '../truth/history-retention.js';
import { GroundTruthView } from '../truth/ground-truth-view.js';
import { Operator } from './operator.js';
import { type PrepareOutcome, prepareOrder } from './placement.js';
import { type SubmitOptions, type SubmitResult, submit } from './submission.js';

/** An account to register, with its starting wallet and preapprovals. */
export interface AccountSetup extends AccountInit {
  /** Starting available balances per token, decimal strings. */
  balances?: Record<string, string | Dec>;
  /** Tokens with a transfer preapproval. Default: every token of the account's pairs. */
  preapprovals?: string[];
}

/** What building a {@link VenueEngine} takes. */
export interface VenueEngineOptions {
  /** All time comes from here. */
  clock: Clock;
  /** All randomness comes from forks of this. */
  rng: Rng;
  pairs: PairSpec[];
  settings?: Partial<EngineSettings>;
}

/**
 * The simulated venue's engine: accounts and keys, wallets and locks, orders, the book and
 * matching, the prepare/submit/cancel flows, operator actions and the ground-truth log. It is
 * synchronous and socket-free; the router adds HTTP semantics, latency and faults on top.
 *
 * It implements {@link MarketPort} for the market model. Background liquidity that crosses an
 * account's resting order executes against it first (the background maker takes it at the
 * account's price), because a real book cannot stay crossed; background never trades with
 * background. Levels kept at an unchanged price keep their time priority across refreshes.
 */
export class VenueEngine implements MarketPort {
  readonly core: EngineCore;
  readonly operator: Operator;
  readonly truth: GroundTruthView;

  constructor(options: VenueEngineOptions) {
    this.core = new EngineCore(options.clock, options.rng, options.pairs, options.settings);
    this.operator = new Operator(this.core);
    this.truth = new GroundTruthView(this.core);
  }

  /**
   * Onboards an account: registers it, funds its wallet, enables its preapprovals (by default
   * for every token of its pairs). Returns its API key.
   */
  registerAccount(setup: AccountSetup): { account: Account; apiKey: string } {
    const { balances, preapprovals, ...init } = setup;
    const result = this.core.accounts.register(init);
    const partyId = result.account.partyId;
    const pairs =
      result.account.allowedPairs === 'all' ? [...this.core.pairs.keys()] : result.account.allowedPairs;
    const defaults = pairs.flatMap((p) => {
      const spec = this.core.pairs.get(p);
      return spec ? [spec.base, spec.quote] : [];
    });
    for (const token of preapprovals ?? defaults) result.account.preapprovals.add(token);
    for (const [token, amount] of Object.entries(balances ?? {})) {
      const a = dec(amount);
      if (a.gt(0)) this.core.wallets.credit(partyId, token, a);
      else this.core.wallets.holding(partyId, token);
    }
    this.core.truth.event('account.registered', { accountSlug: setup.slug, partyId });
    this.core.snapshotBalances('registered');
    return result;
  }

  /** The account with `slug`. */
  account(slug: string): Account {
    return this.core.accounts.get(slug);
  }

  /** Resolves the caller of an authenticated endpoint from its (lower-cased) headers. */
  authenticate(headers: Record<string, string | undefined>): Account {
    return this.core.accounts.authenticate(headers, this.core.now());
  }

  /** POST /orders. */
  prepareOrder(account: Account, body: unknown): PrepareOutcome {
    return prepareOrder(this.core, account, body);
  }

  /** POST /orders/{contractId}/cancel. */
  prepareCancel(account: Account, contractId: string, body: unknown): CancelPrepared {
    return prepareCancel(this.core, account, contractId, body);
  }

  /** POST {submit_url}. */
  submit(body: unknown, opts: SubmitOptions): SubmitResult {
    return submit(this.core, body, opts);
  }

  /** The wallet of an account as wire strings, per token. */
  balancesOf(slug: string): Record<string, { available: string; locked: string }> {
    return this.core.wallets.view(this.core.accounts.get(slug).partyId);
  }

  /**
   * Bounds the venue's order, command and public-trade history for a long session (paper
   * trading): see {@link HistoryRetention}. Returns the retention (its `sweep()` runs on demand).
   */
  retainHistory(options: RetentionOptions): HistoryRetention {
    const retention = new HistoryRetention(this.core, options);
    retention.start();
    return retention;
  }

  /** Cancels every engine timer (pending commits and deadlines). */
  dispose(): void {
    this.core.timers.disposeAll();
  }

  // ---- MarketPort -------------------------------------------------------------------------

  pairs(): string[] {
    return [...this.core.pairs.keys()];
  }

  setBackgroundLiquidity(
    pair: string,
    bids: ReadonlyArray<readonly [Dec, Dec]>,
    asks: ReadonlyArray<readonly [Dec, Dec]>,
  ): void {
    const book = this.core.book(pair);
    book.beforeChange();
    let traded = false;
    for (const [side, levels] of [
      ['BUY', bids],
      ['SELL', asks],
    ] as const) {
      const keep = new Map<string, number>();
      for (const e of [...book.side(side)]) {
        if (e.order !== null) continue;
        keep.set(e.price.toFixed(), e.seq);
        book.remove(e);
      }
      for (const [price, qty] of levels) {
        if (!price.gt(0) || !qty.gt(0))
          throw new RangeError(`bad background level ${toWire(price)} x ${toWire(qty)}`);
        const taker: Taker = { side, order: null, accountsOnly: true };
        let left = qty;
        for (const fill of this.core.plan(book, taker, qty, price)) {
          this.core.executeFill(book, fill, taker);
          left = left.minus(fill.qty);
          traded = true;
        }
        // `left` is still `qty` unless a fill took from it (the usual case: nothing crosses).
        if (left === qty || left.gt(0)) {
          const key = price.toFixed();
          const seq = keep.get(key) ?? this.core.nextBookSeq();
          keep.delete(key);
          book.insert({ side, price, seq, order: null, qty: left });
        }
      }
    }
    if (traded) this.core.endTransaction('fill');
  }

  takeLiquidity(pair: string, side: Side, quantity: Dec, limitPrice: Dec): Dec {
    const book = this.core.book(pair);
    if (!quantity.gt(0)) return ZERO;
    const taker: Taker = { side, order: null };
    const fills = this.core.plan(book, taker, quantity, limitPrice);
    if (fills.length === 0) return ZERO;
    let executed = ZERO;
    for (const fill of fills) {
      this.core.executeFill(book, fill, taker);
      executed = executed.plus(fill.qty);
    }
    this.core.endTransaction('fill');
    return executed;
  }

  setReferencePrice(pair: string, price: Dec): void {
    this.core.pair(pair);
    this.core.referencePrices.set(pair, price);
    this.core.truth.reference(pair, toWire(price));
  }
}
