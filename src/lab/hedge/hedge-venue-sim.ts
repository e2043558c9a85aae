/**
 * The simulated hedge venue: a liquid exchange beside the simulated venue, on the same seed.
 * It fills an IOC limit order at once and in full at the true price ± `halfSpreadBps` (when the
 * limit allows; else nothing fills), charges `takerFeeBps` of the notional, answers every call
 * after `latencyMs`, and draws its faults call by call from its own stream of the seed, like the
 * venue's other faults:
 * - `HEDGE_UNAVAILABLE`: the call fails before reaching the venue (nothing happens);
 * - `lostAnswer`: an order call reaches the venue and is executed, but its answer is lost (the
 *   caller sees an unknown outcome, and must read the order).
 *
 * With `receiveWindowMs`, an order that reaches it later than that after its `sentAt` is refused
 * unexecuted, like Binance past `recvWindow` (a request left on the wire by a dead process).
 *
 * It implements the hedge layer's {@link HedgeVenue}, so the hedger runs on it unchanged.
 */
import { type Clock, sleep } from '../../core/clock.js';
import { Dec, ZERO } from '../../core/decimal.js';
import {
  type HedgeOrderRequest,
  type HedgeOrderState,
  type HedgeTouch,
  type HedgeVenue,
  hedgeError,
} from '../../hedge/hedge-venue.js';
import type { Rng } from '../../sim/rng.js';

/** Settings of the simulated hedge venue. */
export interface HedgeVenueSimOptions {
  readonly clock: Clock;
  /** The true price of the symbol now (the simulator's fair value). */
  readonly truePrice: () => Dec;
  readonly halfSpreadBps: number;
  readonly takerFeeBps: number;
  readonly latencyMs: number;
  /** Its own stream of the run's seed. */
  readonly rng: Rng;
  /** Chance per call that it fails unreached. */
  readonly unavailableRate?: number;
  /** Chance per order call that it executes but its answer is lost. */
  readonly lostAnswerRate?: number;
  /** Refuse an order reaching it later than this after its `sentAt`, ms; absent: no limit. */
  readonly receiveWindowMs?: number;
}

/** One fill of the simulated hedge venue. */
export interface HedgeSimTrade {
  readonly at: number;
  readonly side: 'BUY' | 'SELL';
  readonly quantity: Dec;
  readonly price: Dec;
  readonly feeQuote: Dec;
  /** The true price when it filled. */
  readonly truePrice: Dec;
}

/** The simulated hedge venue. */
export class HedgeVenueSim implements HedgeVenue {
  readonly id = 'sim-hedge';
  private readonly orders = new Map<string, HedgeOrderState>();
  private positionBase: Dec = ZERO;
  /** Every order call that reached the venue, in order (tests count doubled hedges on it). */
  readonly received: HedgeOrderRequest[] = [];
  /** Every fill, in order, with the true price when it filled (the lab's hedge cost). */
  readonly trades: HedgeSimTrade[] = [];

  constructor(private readonly o: HedgeVenueSimOptions) {}

  /** Sets the position (a test's starting point). */
  setPosition(base: Dec): void {
    this.positionBase = base;
  }

  private async reach(signal: AbortSignal): Promise<void> {
    await sleep(this.o.clock, this.o.latencyMs, signal);
    if (this.o.rng.chance(this.o.unavailableRate ?? 0)) {
      throw hedgeError('HEDGE_UNAVAILABLE', 'simulated hedge venue unavailable');
    }
  }

  private bps(n: number): Dec {
    return new Dec(n).div(10_000);
  }

  async touch(_symbol: string, signal: AbortSignal): Promise<HedgeTouch> {
    await this.reach(signal);
    const p = this.o.truePrice();
    const h = p.times(this.bps(this.o.halfSpreadBps));
    return { bid: p.minus(h), ask: p.plus(h) };
  }

  async placeIoc(req: HedgeOrderRequest, signal: AbortSignal): Promise<HedgeOrderState> {
    await this.reach(signal);
    if (this.orders.has(req.clientOrderId)) {
      throw hedgeError('HEDGE_REFUSED', `duplicate client order id ${req.clientOrderId}`);
    }
    const window = this.o.receiveWindowMs;
    if (window !== undefined && req.sentAt !== undefined && this.o.clock.now() - req.sentAt > window) {
      throw hedgeError(
        'HEDGE_REFUSED',
        `order ${req.clientOrderId} reached the venue outside its receive window`,
      );
    }
    this.received.push(req);
    const p = this.o.truePrice();
    const h = p.times(this.bps(this.o.halfSpreadBps));
    const fillPrice = req.side === 'BUY' ? p.plus(h) : p.minus(h);
    const fills = req.side === 'BUY' ? fillPrice.lte(req.limitPrice) : fillPrice.gte(req.limitPrice);
    const filled = fills ? req.quantity : ZERO;
    const state: HedgeOrderState = {
      clientOrderId: req.clientOrderId,
      status: 'closed',
      side: req.side,
      filled,
      averagePrice: fills ? fillPrice : null,
      feeQuote: filled.times(fillPrice).times(this.bps(this.o.takerFeeBps)),
    };
    this.orders.set(req.clientOrderId, fills ? state : { ...state, status: 'canceled' });
    if (fills)
      this.trades.push({
        at: this.o.clock.now(),
        side: req.side,
        quantity: filled,
        price: fillPrice,
        feeQuote: state.feeQuote,
        truePrice: p,
      });
    this.positionBase = req.side === 'BUY' ? this.positionBase.plus(filled) : this.positionBase.minus(filled);
    if (this.o.rng.chance(this.o.lostAnswerRate ?? 0)) {
      throw hedgeError('HEDGE_UNKNOWN_OUTCOME', 'simulated hedge venue answer lost');
    }
    return this.orders.get(req.clientOrderId)!;
  }

  async readOrder(
    clientOrderId: string,
    _symbol: string,
    signal: AbortSignal,
  ): Promise<HedgeOrderState | null> {
    await this.reach(signal);
    return this.orders.get(clientOrderId) ?? null;
  }

  async openOrders(_symbol: string, signal: AbortSignal): Promise<readonly HedgeOrderState[]> {
    await this.reach(signal);
    return []; // IOC orders never rest
  }

  async position(_symbol: string, signal: AbortSignal): Promise<Dec> {
    await this.reach(signal);
    return this.positionBase;
  }
}
