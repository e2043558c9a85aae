/**
 * The last price of one book on one liquid exchange, through ccxt: by WebSocket
 * (`watchTicker`, ccxt.pro) where the exchange has it, else by REST polling (`fetchTicker`).
 *
 * A WebSocket that fails, or stays silent for `timeoutMs`, drops the stream to REST polling; it
 * tries the WebSocket again after a backoff that doubles per failure (up to `maxBackoffMs`) and
 * goes back to it on its first price. The exchange's markets are loaded first; a failed load is
 * retried with ccxt's `reload` (ccxt otherwise hands the same failed promise back forever). The price is the ticker's mid when it has both bid and
 * ask, else its last trade. `at` is the exchange's timestamp of the data when it is plausible,
 * else the time it was received ({@link tickerTime}), so a feed that answers but no longer
 * updates goes stale. An exchange clock behind ours makes its prices look that much older.
 *
 * Every wait has the stream's AbortSignal and a timeout. ccxt's own promises cannot be aborted:
 * a call that times out is left to settle on its own (its result is dropped).
 */
import { type Clock, sleep, timeoutSignal, abortReason } from '../../core/clock.js';
import { Dec } from '../../core/decimal.js';
import type { BookPrice } from './combine-sources.js';

/** The part of a ccxt ticker the stream reads. */
export interface TickerLike {
  readonly bid?: number | undefined;
  readonly ask?: number | undefined;
  readonly last?: number | undefined;
  /** The exchange's time of the data, ms since the epoch. */
  readonly timestamp?: number | undefined;
}

/** The part of a ccxt exchange the streams use (a ccxt.pro instance satisfies it). */
export interface TickerExchange {
  readonly id: string;
  readonly has: Readonly<Record<string, unknown>>;
  loadMarkets(reload?: boolean): Promise<unknown>;
  fetchTicker(symbol: string): Promise<TickerLike>;
  watchTicker?(symbol: string): Promise<TickerLike>;
  close?(): Promise<unknown>;
}

/** How a stream is taking prices now. */
export type StreamMode = 'starting' | 'websocket' | 'rest' | 'closed';

/** Options of {@link TickerStream}. */
export interface TickerStreamOptions {
  /** The ccxt id of the exchange (`binance`). */
  readonly exchangeId: string;
  /** The exchange instance, made on first use (ccxt is loaded then). */
  readonly exchange: () => Promise<TickerExchange>;
  readonly symbol: string;
  readonly clock: Clock;
  readonly websocket: boolean;
  readonly pollIntervalMs: number;
  readonly timeoutMs: number;
  /** Longest wait before the WebSocket is tried again, ms. Default 60 000. */
  readonly maxBackoffMs?: number;
  /** Called with every new price. Must not throw. */
  readonly onPrice: (price: BookPrice) => void;
  /** Called with every failed call. Must not throw. */
  readonly onError?: (error: unknown) => void;
}

/** The price of a ticker: its mid with both sides, else its last; null when neither is usable. */
export function tickerPrice(t: TickerLike): Dec | null {
  const ok = (n: number | undefined): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0;
  if (ok(t.bid) && ok(t.ask) && t.ask >= t.bid) return new Dec(String(t.bid)).plus(String(t.ask)).div(2);
  if (ok(t.last)) return new Dec(String(t.last));
  return null;
}

/** A day: an exchange time older than this is not believed (a placeholder, a broken clock). */
const PLAUSIBLE_MS = 86_400_000;

/**
 * When the ticker's data is from: the exchange's own timestamp when it is plausible (within the
 * last day, not in the future), else the time it was received. An exchange that keeps answering
 * with data that no longer updates (a frozen feed) thereby ages and goes stale.
 */
export function tickerTime(t: TickerLike, receivedAt: number): number {
  const ts = t.timestamp;
  if (typeof ts === 'number' && Number.isFinite(ts) && ts <= receivedAt && ts > receivedAt - PLAUSIBLE_MS)
    return ts;
  return receivedAt;
}

/** One exchange book's price stream. */
export class TickerStream {
  private readonly opts: TickerStreamOptions;
  private readonly stop = new AbortController();
  private last: BookPrice = { price: null, at: null };
  private modeNow: StreamMode = 'starting';
  private errorCount = 0;
  private wsFailures = 0;
  /** Markets loaded; a failed load is retried with `reload` (ccxt keeps a failed load's promise). */
  private markets: 'none' | 'failed' | 'loaded' = 'none';
  private loop: Promise<void> | null = null;

  constructor(opts: TickerStreamOptions) {
    this.opts = opts;
  }

  /** `exchange:symbol`. */
  get id(): string {
    return `${this.opts.exchangeId}:${this.opts.symbol}`;
  }

  /** The last price received (null before the first). */
  get latest(): BookPrice {
    return this.last;
  }

  get mode(): StreamMode {
    return this.modeNow;
  }

  /** Failed calls so far. */
  get errors(): number {
    return this.errorCount;
  }

  /** Starts the loop (idempotent). */
  start(): void {
    this.loop ??= this.run(this.stop.signal).catch(() => undefined);
  }

  /** Stops the loop and waits for it. */
  async close(): Promise<void> {
    this.stop.abort(new DOMException('stream closed', 'AbortError'));
    await this.loop;
    this.modeNow = 'closed';
  }

  private static canWatch(ex: TickerExchange, websocket: boolean): boolean {
    const has = ex.has['watchTicker'];
    return websocket && (has === true || has === 'emulated') && ex.watchTicker !== undefined;
  }

  private async run(signal: AbortSignal): Promise<void> {
    let wsAfter = 0;
    let exchange: TickerExchange | null = null;
    while (exchange === null) {
      try {
        exchange = await this.bounded(this.opts.exchange, signal);
      } catch (error) {
        if (signal.aborted) return;
        this.failed(error);
        await sleep(this.opts.clock, this.opts.pollIntervalMs, signal).catch(() => undefined);
        if (signal.aborted) return;
      }
    }
    const ex: TickerExchange = exchange;
    while (!signal.aborted) {
      const useWs = TickerStream.canWatch(ex, this.opts.websocket) && this.opts.clock.now() >= wsAfter;
      this.modeNow = useWs ? 'websocket' : 'rest';
      try {
        if (this.markets !== 'loaded') {
          const reload = this.markets === 'failed';
          this.markets = 'failed';
          await this.bounded(() => ex.loadMarkets(reload), signal);
          this.markets = 'loaded';
        }
        const t = await this.bounded(
          useWs ? ex.watchTicker!.bind(ex, this.opts.symbol) : ex.fetchTicker.bind(ex, this.opts.symbol),
          signal,
        );
        const price = tickerPrice(t);
        if (price === null) throw new Error(`${this.id}: ticker without a usable price`);
        this.last = { price, at: tickerTime(t, this.opts.clock.now()) };
        if (useWs) this.wsFailures = 0;
        this.opts.onPrice(this.last);
      } catch (error) {
        if (signal.aborted) break;
        this.failed(error);
        if (useWs && this.markets === 'loaded') {
          this.wsFailures++;
          const backoff = Math.min(
            this.opts.maxBackoffMs ?? 60_000,
            this.opts.pollIntervalMs * 2 ** Math.min(this.wsFailures, 16),
          );
          wsAfter = this.opts.clock.now() + backoff;
          continue;
        }
      }
      if (!useWs || this.markets !== 'loaded') {
        await sleep(this.opts.clock, this.opts.pollIntervalMs, signal).catch(() => undefined);
      }
    }
  }

  private failed(error: unknown): void {
    this.errorCount++;
    this.opts.onError?.(error);
  }

  /** `call()` with the stream's signal and `timeoutMs`; a call abandoned on timeout settles unobserved. */
  private bounded<T>(call: () => Promise<T>, signal: AbortSignal): Promise<T> {
    const t = timeoutSignal(this.opts.clock, this.opts.timeoutMs, signal);
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => reject(abortReason(t.signal));
      if (t.signal.aborted) {
        onAbort();
        return;
      }
      t.signal.addEventListener('abort', onAbort, { once: true });
      call().then(resolve, reject);
    }).finally(() => t.dispose());
  }
}
