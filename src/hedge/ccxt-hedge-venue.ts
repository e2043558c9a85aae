/**
 * The hedge venue on a liquid exchange through ccxt (spot or perpetual). IOC limit orders carry
 * the hedger's client order id, so `readOrder` finds an order whose answer was lost. A quantity
 * and a price cross into ccxt as decimal strings cut by the market's own precision helpers
 * (`amountToPrecision`, which truncates, and `priceToPrecision`), never as floats; everything
 * handed back is `Dec`.
 *
 * ccxt's errors map onto the `HEDGE_` codes of the one error union (`src/venue/errors.ts`):
 * `InsufficientFunds` → HEDGE_INSUFFICIENT_FUNDS; `InvalidOrder`, `BadRequest`,
 * `AuthenticationError`, `PermissionDenied`, `BadSymbol` → HEDGE_REFUSED (the order is not on the
 * book); anything else on an order call → HEDGE_UNKNOWN_OUTCOME (read before acting), on a read →
 * HEDGE_UNAVAILABLE.
 *
 * The position: a perpetual's from `fetchPositions` (contracts × contract size, signed); on spot,
 * the base balance minus `spotBaselineBase` (what the account holds when flat).
 */
import { raceAbort } from '../core/abort-race.js';
import { Dec, ZERO } from '../core/decimal.js';
import type { VenueError } from '../venue/errors.js';
import {
  type HedgeOrderRequest,
  type HedgeOrderState,
  type HedgeTouch,
  type HedgeVenue,
  hedgeCodeOf,
  hedgeError,
} from './hedge-venue.js';

/** The part of a ccxt order the adapter reads. */
interface CcxtOrder {
  readonly clientOrderId?: string;
  readonly status?: string;
  readonly side?: string;
  readonly filled?: number;
  readonly average?: number;
  readonly price?: number;
  readonly fee?: { readonly cost?: number; readonly currency?: string };
  readonly fees?: ReadonlyArray<{ readonly cost?: number; readonly currency?: string }>;
}

/** The part of a ccxt exchange the adapter uses. */
export interface CcxtTradingExchange {
  readonly id: string;
  loadMarkets(reload?: boolean): Promise<unknown>;
  market(symbol: string): { readonly base: string; readonly quote: string; readonly contractSize?: number };
  /** The quantity cut to the market's step (truncated), as a decimal string; throws below one step. */
  amountToPrecision(symbol: string, amount: string): string;
  /** The price rounded to the market's tick, as a decimal string. */
  priceToPrecision(symbol: string, price: string): string;
  /**
   * ccxt types `amount` and `price` as numbers, but every exchange passes them through the two
   * helpers above, which take decimal strings: the adapter hands it their strings unchanged.
   */
  createOrder(
    symbol: string,
    type: string,
    side: string,
    amount: string,
    price: string,
    params: Record<string, unknown>,
  ): Promise<CcxtOrder>;
  fetchOrder(id: string, symbol: string, params: Record<string, unknown>): Promise<CcxtOrder>;
  fetchOpenOrders(symbol: string): Promise<CcxtOrder[]>;
  fetchBalance(): Promise<{ readonly total?: Readonly<Record<string, number | undefined>> }>;
  fetchPositions?(
    symbols: string[],
  ): Promise<Array<{ readonly symbol?: string; readonly contracts?: number; readonly side?: string }>>;
  fetchTicker(symbol: string): Promise<{ readonly bid?: number; readonly ask?: number }>;
}

/** Options of {@link CcxtHedgeVenue}. */
export interface CcxtHedgeVenueOptions {
  readonly exchange: CcxtTradingExchange;
  readonly kind: 'spot' | 'perp';
  /** Spot: the base balance that counts as flat. */
  readonly spotBaselineBase?: Dec;
}

const REFUSED = new Set([
  'InvalidOrder',
  'BadRequest',
  'AuthenticationError',
  'PermissionDenied',
  'BadSymbol',
]);

function errorName(e: unknown): string {
  // ccxt errors are a class hierarchy; walk it by name (no import of ccxt here).
  let proto: unknown = e === null || typeof e !== 'object' ? null : Object.getPrototypeOf(e);
  const names: string[] = [];
  while (proto !== null && proto !== Object.prototype) {
    const n = (proto as { constructor?: { name?: string } }).constructor?.name;
    if (n !== undefined) names.push(n);
    proto = Object.getPrototypeOf(proto);
  }
  if (names.includes('InsufficientFunds')) return 'InsufficientFunds';
  if (names.includes('OrderNotFound')) return 'OrderNotFound';
  return names.find((n) => REFUSED.has(n)) ?? names[0] ?? 'Error';
}

const dec = (n: number | undefined): Dec | null =>
  typeof n === 'number' && Number.isFinite(n) ? new Dec(String(n)) : null;

/** The hedge venue on one ccxt exchange. */
export class CcxtHedgeVenue implements HedgeVenue {
  constructor(private readonly o: CcxtHedgeVenueOptions) {}

  get id(): string {
    return this.o.exchange.id;
  }

  private abortable<T>(call: () => Promise<T>, signal: AbortSignal): Promise<T> {
    return raceAbort(call, signal, (before) =>
      before
        ? hedgeError('HEDGE_UNAVAILABLE', 'aborted')
        : hedgeError('HEDGE_UNKNOWN_OUTCOME', 'aborted in flight'),
    );
  }

  private mapped(e: unknown, orderCall: boolean): VenueError {
    if (hedgeCodeOf(e) !== null) return e as VenueError;
    const name = errorName(e);
    const msg = e instanceof Error ? e.message : String(e);
    if (name === 'InsufficientFunds') return hedgeError('HEDGE_INSUFFICIENT_FUNDS', msg, e);
    if (REFUSED.has(name)) return hedgeError('HEDGE_REFUSED', msg, e);
    return hedgeError(orderCall ? 'HEDGE_UNKNOWN_OUTCOME' : 'HEDGE_UNAVAILABLE', msg, e);
  }

  private state(clientOrderId: string, symbol: string, o: CcxtOrder): HedgeOrderState {
    const filled = dec(o.filled) ?? ZERO;
    const average = dec(o.average) ?? (filled.gt(ZERO) ? dec(o.price) : null);
    const { base } = this.o.exchange.market(symbol);
    let fee = ZERO;
    for (const f of o.fees ?? (o.fee === undefined ? [] : [o.fee])) {
      const cost = dec(f.cost) ?? ZERO;
      fee = fee.plus(f.currency === base && average !== null ? cost.times(average) : cost);
    }
    const status =
      o.status === 'open'
        ? 'open'
        : o.status === 'rejected'
          ? 'rejected'
          : o.status === 'closed'
            ? 'closed'
            : 'canceled';
    return {
      clientOrderId,
      status,
      side: o.side === 'buy' ? 'BUY' : 'SELL',
      filled,
      averagePrice: filled.gt(ZERO) ? average : null,
      feeQuote: fee,
    };
  }

  async placeIoc(req: HedgeOrderRequest, signal: AbortSignal): Promise<HedgeOrderState> {
    try {
      const ex = this.o.exchange;
      await this.abortable(() => ex.loadMarkets(), signal).catch((e: unknown) => {
        throw hedgeError('HEDGE_UNAVAILABLE', 'markets not loaded', e);
      });
      // Cut by the market's own helpers before anything is sent: a refusal here sent nothing.
      let amount: string;
      let price: string;
      try {
        amount = ex.amountToPrecision(req.symbol, req.quantity.toFixed());
        price = ex.priceToPrecision(req.symbol, req.limitPrice.toFixed());
      } catch (e) {
        throw hedgeError('HEDGE_REFUSED', e instanceof Error ? e.message : String(e), e);
      }
      const o = await this.abortable(
        () =>
          ex.createOrder(req.symbol, 'limit', req.side.toLowerCase(), amount, price, {
            timeInForce: 'IOC',
            clientOrderId: req.clientOrderId,
          }),
        signal,
      );
      return this.state(req.clientOrderId, req.symbol, { side: req.side.toLowerCase(), ...o });
    } catch (e) {
      throw this.mapped(e, true);
    }
  }

  async readOrder(
    clientOrderId: string,
    symbol: string,
    signal: AbortSignal,
  ): Promise<HedgeOrderState | null> {
    try {
      await this.abortable(() => this.o.exchange.loadMarkets(), signal);
      const o = await this.abortable(
        () => this.o.exchange.fetchOrder('', symbol, { clientOrderId, origClientOrderId: clientOrderId }),
        signal,
      );
      return this.state(clientOrderId, symbol, o);
    } catch (e) {
      if (errorName(e) === 'OrderNotFound') return null;
      throw this.mapped(e, false);
    }
  }

  async openOrders(symbol: string, signal: AbortSignal): Promise<readonly HedgeOrderState[]> {
    try {
      const list = await this.abortable(() => this.o.exchange.fetchOpenOrders(symbol), signal);
      return list.map((o) => this.state(o.clientOrderId ?? '', symbol, o));
    } catch (e) {
      throw this.mapped(e, false);
    }
  }

  async position(symbol: string, signal: AbortSignal): Promise<Dec> {
    try {
      const ex = this.o.exchange;
      await this.abortable(() => ex.loadMarkets(), signal);
      if (this.o.kind === 'perp') {
        if (ex.fetchPositions === undefined) throw hedgeError('HEDGE_REFUSED', `${ex.id} has no positions`);
        const list = await this.abortable(() => ex.fetchPositions!([symbol]), signal);
        const size = new Dec(String(ex.market(symbol).contractSize ?? 1));
        return list
          .filter((p) => p.symbol === symbol)
          .reduce((s, p) => {
            const q = (dec(p.contracts) ?? ZERO).times(size);
            return p.side === 'short' ? s.minus(q) : s.plus(q);
          }, ZERO);
      }
      const balance = await this.abortable(() => ex.fetchBalance(), signal);
      const base = ex.market(symbol).base;
      return (dec(balance.total?.[base]) ?? ZERO).minus(this.o.spotBaselineBase ?? ZERO);
    } catch (e) {
      throw this.mapped(e, false);
    }
  }

  async touch(symbol: string, signal: AbortSignal): Promise<HedgeTouch> {
    try {
      const t = await this.abortable(() => this.o.exchange.fetchTicker(symbol), signal);
      return { bid: dec(t.bid), ask: dec(t.ask) };
    } catch (e) {
      throw this.mapped(e, false);
    }
  }
}
