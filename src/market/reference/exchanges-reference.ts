/**
 * The "exchanges" reference of every pair that has one: the ccxt price streams of its sources
 * and conversion legs (one stream per exchange book, shared by the pairs that list it), the
 * readings handed to the market state on every price (the strategy takes their median there,
 * `combine-sources.ts`), and what the metrics and the log need: per source its age, deviation,
 * errors, state and the outliers counted, and the venue's own mid beside the reference.
 *
 * Loud, never guessing: when a pair falls below `minSources`, a WARN names every source that is
 * not used and why (once per fall; an INFO when it recovers; none while the sources first come
 * in, for `maxAgeMs` after the start). The strategy refuses to quote it by
 * itself, from the same readings.
 */
import type { Logger } from '../../logging/logger.js';
import { type Clock, sleep } from '../../core/clock.js';
import type { Dec } from '../../core/decimal.js';
import { type ReferenceSourceConfig, sourceId } from '../../config/sections/reference-sources.js';
import {
  type Combination,
  type CombineRules,
  type SourceReading,
  combineSources,
  conversionDivides,
  deviationBps,
} from './combine-sources.js';
import type { ExchangeFactory } from './ccxt-exchanges.js';
import { type StreamMode, TickerStream } from './ticker-stream.js';

/** The resolved `exchanges` section of one pair. */
export interface ExchangesSettings extends CombineRules {
  readonly sources: readonly ReferenceSourceConfig[];
  readonly pollIntervalMs: number;
  readonly timeoutMs: number;
  readonly websocket: boolean;
}

/** A pair whose reference is "exchanges". */
export interface PairSources {
  readonly pair: string;
  readonly settings: ExchangesSettings;
}

/** Options of {@link ExchangesReference}. */
export interface ExchangesReferenceOptions {
  readonly pairs: readonly PairSources[];
  readonly clock: Clock;
  readonly exchanges: ExchangeFactory;
  /** Receives a pair's readings on every price of one of its streams (→ `MarketState.setSources`). */
  readonly onReadings: (pair: string, readings: readonly SourceReading[]) => void;
  readonly log?: Pick<Logger, 'warn' | 'info'>;
  /** The venue's own mid of a pair (sanity check beside the reference), or null. */
  readonly venueMid?: (pair: string) => Dec | null;
}

/** What one source looks like in a report. */
export interface SourceReport {
  readonly id: string;
  readonly state: 'used' | 'outlier' | 'stale' | 'no-price';
  readonly ageMs: number | null;
  readonly deviationBps: number | null;
  /** Failed calls of its stream (and of its conversion leg's). */
  readonly errors: number;
  /** Times it was left out as an outlier. */
  readonly outliers: number;
  readonly mode: StreamMode;
}

/** One pair's reference at one instant. */
export interface PairReferenceReport {
  readonly pair: string;
  readonly minSources: number;
  readonly usable: number;
  readonly combination: Combination;
  /** `(venue mid − reference) / reference` in bps; null without both. */
  readonly venueMidDeviationBps: number | null;
  readonly sources: readonly SourceReport[];
}

interface PairEntry {
  readonly pair: string;
  readonly settings: ExchangesSettings;
  readonly sources: ReadonlyArray<{
    readonly id: string;
    readonly weight: number;
    readonly stream: TickerStream;
    readonly leg: { readonly stream: TickerStream; readonly divide: boolean } | null;
  }>;
  readonly outlierCounts: Map<string, number>;
  lastStates: Map<string, string>;
  /** null before the first evaluation; else whether the last one had a reference. */
  lastOk: boolean | null;
}

/** The quote currency of a pair or symbol `BASE/QUOTE[:SETTLE]`. */
function quoteOf(symbol: string): string {
  return (symbol.split(':')[0] ?? '').split('/')[1] ?? '';
}

/** Every "exchanges" reference of the daemon. */
export class ExchangesReference {
  private readonly streams = new Map<string, TickerStream>();
  private readonly entries: PairEntry[] = [];
  private readonly stop = new AbortController();
  private watch: Promise<void> | null = null;
  private startedAt = 0;

  /**
   * Builds the streams of `opts.pairs` (not started; ccxt is loaded when they start).
   *
   * @throws Error when a conversion leg does not link a source's quote currency to the pair's.
   */
  constructor(private readonly opts: ExchangesReferenceOptions) {
    for (const p of opts.pairs) this.add(p);
  }

  private stream(exchange: string, symbol: string, s: ExchangesSettings): TickerStream {
    const id = sourceId({ exchange, symbol });
    const known = this.streams.get(id);
    if (known !== undefined) return known;
    const stream = new TickerStream({
      exchangeId: exchange,
      exchange: () => this.opts.exchanges(exchange),
      symbol,
      clock: this.opts.clock,
      websocket: s.websocket,
      pollIntervalMs: s.pollIntervalMs,
      timeoutMs: s.timeoutMs,
      onPrice: () => this.priced(id),
    });
    this.streams.set(id, stream);
    return stream;
  }

  private add(p: PairSources): void {
    const pairQuote = quoteOf(p.pair);
    const sources: Array<PairEntry['sources'][number]> = [];
    for (const src of p.settings.sources) {
      let leg: { stream: TickerStream; divide: boolean } | null = null;
      if (src.convert !== undefined) {
        const divide = conversionDivides(src.symbol, src.convert.symbol, pairQuote);
        if (divide === null) {
          throw new Error(
            `${p.pair}: the conversion leg ${sourceId(src.convert)} of ${sourceId(src)} does not link ${quoteOf(src.symbol)} to ${pairQuote}`,
          );
        }
        leg = { stream: this.stream(src.convert.exchange, src.convert.symbol, p.settings), divide };
      }
      sources.push({
        id: sourceId(src),
        weight: src.weight ?? 1,
        stream: this.stream(src.exchange, src.symbol, p.settings),
        leg,
      });
    }
    this.entries.push({
      pair: p.pair,
      settings: p.settings,
      sources,
      outlierCounts: new Map(),
      lastStates: new Map(),
      lastOk: null,
    });
  }

  /** The readings of a pair now (its sources' last prices and legs). */
  readings(pair: string): SourceReading[] {
    const e = this.entries.find((x) => x.pair === pair);
    return e === undefined ? [] : this.readingsOf(e);
  }

  private readingsOf(e: PairEntry): SourceReading[] {
    return e.sources.map((s) => ({
      id: s.id,
      weight: s.weight,
      ...s.stream.latest,
      ...(s.leg === null
        ? {}
        : {
            conversion: {
              id: s.leg.stream.id,
              divide: s.leg.divide,
              ...s.leg.stream.latest,
            },
          }),
    }));
  }

  /** Starts every stream, and the watch that notices sources going stale between prices. Idempotent. */
  start(): void {
    if (this.watch !== null) return;
    this.startedAt = this.opts.clock.now();
    for (const s of this.streams.values()) s.start();
    const every = Math.max(100, Math.min(1_000, ...this.entries.map((e) => e.settings.maxAgeMs / 4)));
    this.watch ??= (async () => {
      while (!this.stop.signal.aborted) {
        await sleep(this.opts.clock, every, this.stop.signal).catch(() => undefined);
        if (!this.stop.signal.aborted) for (const e of this.entries) this.evaluate(e);
      }
    })();
  }

  /** Stops every stream and closes the exchanges' connections. */
  async close(): Promise<void> {
    this.stop.abort(new DOMException('closed', 'AbortError'));
    await this.watch;
    await Promise.all([...this.streams.values()].map((s) => s.close()));
    const exchanges = new Set<string>([...this.streams.keys()].map((id) => id.split(':')[0]!));
    await Promise.all(
      [...exchanges].map(async (id) => {
        const ex = await this.opts.exchanges(id);
        await ex.close?.().catch(() => undefined);
      }),
    );
  }

  private priced(streamId: string): void {
    for (const e of this.entries) {
      if (!e.sources.some((s) => s.stream.id === streamId || s.leg?.stream.id === streamId)) continue;
      this.opts.onReadings(e.pair, this.readingsOf(e));
      this.evaluate(e);
    }
  }

  /** Combines a pair's readings now; counts outliers and logs a fall below minSources. */
  private evaluate(e: PairEntry): Combination {
    const c = combineSources(this.readingsOf(e), e.settings, this.opts.clock.now());
    const states = new Map<string, string>();
    for (const v of c.verdicts) {
      states.set(v.id, v.state);
      if (v.state === 'outlier' && e.lastStates.get(v.id) !== 'outlier') {
        e.outlierCounts.set(v.id, (e.outlierCounts.get(v.id) ?? 0) + 1);
        this.opts.log?.warn(
          { pair: e.pair, source: v.id, deviationBps: v.deviationBps },
          'reference source left out as an outlier',
        );
      }
    }
    e.lastStates = states;
    // At startup the sources come in one by one: no WARN before the first reference or maxAgeMs.
    const graceOver = this.opts.clock.now() - this.startedAt >= e.settings.maxAgeMs;
    if (!c.ok && (e.lastOk === true || (e.lastOk === null && graceOver))) {
      this.opts.log?.warn(
        { pair: e.pair, reason: c.reason, sources: c.verdicts.map((v) => `${v.id}=${v.state}`) },
        'reference: too few usable sources, the pair is not quoted',
      );
    } else if (c.ok && e.lastOk === false) {
      this.opts.log?.info({ pair: e.pair, price: c.price.toFixed() }, 'reference: enough sources again');
    }
    if (c.ok || e.lastOk !== null || graceOver) e.lastOk = c.ok;
    return c;
  }

  /** Every pair's reference now, for metrics and `/status`. */
  report(): PairReferenceReport[] {
    return this.entries.map((e) => {
      const c = combineSources(this.readingsOf(e), e.settings, this.opts.clock.now());
      const mid = this.opts.venueMid?.(e.pair) ?? null;
      const byId = new Map(c.verdicts.map((v) => [v.id, v]));
      return {
        pair: e.pair,
        minSources: e.settings.minSources,
        usable: c.verdicts.filter((v) => v.state === 'used').length,
        combination: c,
        venueMidDeviationBps: c.ok && mid !== null ? deviationBps(mid, c.price) : null,
        sources: e.sources.map((s) => {
          const v = byId.get(s.id)!;
          return {
            id: s.id,
            state: v.state,
            ageMs: v.ageMs,
            deviationBps: v.deviationBps,
            errors: s.stream.errors + (s.leg?.stream.errors ?? 0),
            outliers: e.outlierCounts.get(s.id) ?? 0,
            mode: s.stream.mode,
          };
        }),
      };
    });
  }
}

/**
 * The exchanges reference of the pairs whose `reference.source` is "exchanges", or null when
 * none is (nothing is built, ccxt is never loaded). A change of the sources takes a restart.
 */
export function exchangesReferenceOf(
  pairs: ReadonlyArray<{
    readonly pair: string;
    readonly source: string;
    readonly settings: ExchangesSettings;
  }>,
  opts: Omit<ExchangesReferenceOptions, 'pairs'>,
): ExchangesReference | null {
  const used = pairs.filter((p) => p.source === 'exchanges');
  if (used.length === 0) return null;
  return new ExchangesReference({ ...opts, pairs: used.map(({ pair, settings }) => ({ pair, settings })) });
}
