/**
 * The external reference price of one pair: an HTTP JSON feed, polled on the shared
 * non-overlapping {@link Poller} (a slow feed delays the next poll, never stacks requests).
 * Venue-independent: a plain undici `request`, no API key, nothing of the venue client.
 *
 * Each successful poll reports `{price, at}` with `at` the clock time of the fetch. When no poll
 * has succeeded for `maxAgeMs`, the feed reports null: the strategy then does not quote a pair
 * whose source is `external` (it also checks the age itself).
 *
 * A JSON number is read through its shortest decimal form (`String(n)`): JSON parsing has already
 * made it a double, and a feed that needs more digits should send a decimal string.
 */
import { request } from 'undici';

import type { Clock } from '../core/clock.js';
import { DECIMAL_STRING, Dec } from '../core/decimal.js';
import { Poller, type PollerStats } from '../core/poller.js';
import type { ExternalPrice } from './market-snapshot.js';

/** Options of {@link ExternalFeed}. */
export interface ExternalFeedOptions {
  readonly pair: string;
  /** GET this URL (config `strategy.*.external.url`). */
  readonly url: string;
  /** Where the price is in the JSON (config `external.jsonPath`). */
  readonly jsonPath: string;
  readonly intervalMs: number;
  readonly timeoutMs: number;
  readonly maxAgeMs: number;
  readonly clock: Clock;
  /** Called after every poll with the price now reportable (null when none is fresh). */
  readonly onPrice: (pair: string, price: ExternalPrice | null) => void;
  /** Called with a failed poll's error. Must not throw. */
  readonly onError?: (pair: string, error: unknown) => void;
  /** Fetches and parses the JSON; injectable for tests. Default: undici GET, 200 only. */
  readonly fetchJson?: (url: string, signal: AbortSignal) => Promise<unknown>;
}

/** The steps of a JSON path: `$.data.items[0].price` → `['data', 'items', 0, 'price']`. */
export function parseJsonPath(path: string): Array<string | number> {
  const body = path.replace(/^\$\.?/, '');
  const steps: Array<string | number> = [];
  for (const m of body.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    if (m[2] !== undefined) steps.push(Number(m[2]));
    else if (m[1] !== undefined) steps.push(m[1]);
  }
  return steps;
}

/**
 * The positive decimal at `path` in `json`, or null (missing, not a number or decimal string,
 * not positive). A string must be a plain decimal; a number must be finite.
 */
export function extractPrice(json: unknown, path: string): Dec | null {
  let cur: unknown = json;
  for (const step of parseJsonPath(path)) {
    if (typeof step === 'number') cur = Array.isArray(cur) ? (cur as unknown[])[step] : undefined;
    else
      cur =
        typeof cur === 'object' && cur !== null && !Array.isArray(cur)
          ? (cur as Record<string, unknown>)[step]
          : undefined;
  }
  let price: Dec | null = null;
  if (typeof cur === 'string' && DECIMAL_STRING.test(cur.trim())) price = new Dec(cur.trim());
  if (typeof cur === 'number' && Number.isFinite(cur)) price = new Dec(String(cur));
  return price !== null && price.gt(0) ? price : null;
}

async function undiciJson(url: string, signal: AbortSignal): Promise<unknown> {
  const res = await request(url, { method: 'GET', signal, headers: { accept: 'application/json' } });
  if (res.statusCode !== 200) {
    await res.body.dump();
    throw new Error(`external feed answered HTTP ${res.statusCode}`);
  }
  return res.body.json();
}

/** One pair's external price feed. */
export class ExternalFeed {
  private readonly opts: ExternalFeedOptions;
  private readonly poller: Poller;
  private last: ExternalPrice | null = null;

  constructor(opts: ExternalFeedOptions) {
    this.opts = opts;
    this.poller = new Poller({
      name: `external:${opts.pair}`,
      clock: opts.clock,
      intervalMs: opts.intervalMs,
      timeoutMs: opts.timeoutMs,
      task: (signal) => this.poll(signal),
      onError: (error) => {
        this.opts.onError?.(this.opts.pair, error);
        this.opts.onPrice(this.opts.pair, this.latest());
      },
    });
  }

  /** The last price when it is at most `maxAgeMs` old, else null. */
  latest(): ExternalPrice | null {
    if (this.last === null || this.opts.clock.now() - this.last.at > this.opts.maxAgeMs) return null;
    return this.last;
  }

  /** The poller's state, for health and metrics. */
  get stats(): PollerStats {
    return this.poller;
  }

  /** Starts polling (first poll at once). */
  start(): void {
    this.poller.start();
  }

  /** Polls now (startup, tests); resolves when the poll is over, never rejects. */
  runNow(): Promise<void> {
    return this.poller.runNow();
  }

  /** Stops polling and waits for a poll in flight. */
  close(): Promise<void> {
    return this.poller.close();
  }

  private async poll(signal: AbortSignal): Promise<void> {
    const json = await (this.opts.fetchJson ?? undiciJson)(this.opts.url, signal);
    const price = extractPrice(json, this.opts.jsonPath);
    if (price === null) throw new Error(`no positive price at ${this.opts.jsonPath} in the feed`);
    this.last = { price, at: this.opts.clock.now() };
    this.opts.onPrice(this.opts.pair, this.last);
  }
}
