/**
 * ccxt exchange instances for public prices, one per exchange id, shared by every stream of that
 * exchange (one WebSocket connection, one rate limiter). ccxt is loaded on first use only, so a
 * daemon without an "exchanges" reference never loads it.
 *
 * No credentials are ever given to these instances: prices are public. `urls` overrides an
 * exchange's endpoints (the tests point ccxt at servers on 127.0.0.1).
 */
import type { TickerExchange } from './ticker-stream.js';

/** Makes the exchange instance of a ccxt id. */
export type ExchangeFactory = (id: string) => Promise<TickerExchange>;

/** Options of {@link ccxtExchangeFactory}. */
export interface CcxtFactoryOptions {
  /** ccxt's request timeout, ms. */
  readonly timeoutMs: number;
  /** Per exchange id, a deep override of ccxt's `urls` (tests, private gateways). */
  readonly urls?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Per exchange id, ccxt `options` (e.g. `{fetchMarkets: {types: ['spot']}}`). */
  readonly options?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

type CcxtClass = new (config: Record<string, unknown>) => TickerExchange & {
  urls: Record<string, unknown>;
  loadHttpProxyAgent?: () => Promise<unknown>;
};

function deepMerge(base: Record<string, unknown>, over: Readonly<Record<string, unknown>>): void {
  for (const [k, v] of Object.entries(over)) {
    const b = base[k];
    if (typeof v === 'object' && v !== null && !Array.isArray(v) && typeof b === 'object' && b !== null) {
      deepMerge(b as Record<string, unknown>, v as Record<string, unknown>);
    } else base[k] = v;
  }
}

/** True when `url` (or any URL under it) is a plain ws:// one, which ccxt serves only with an http agent. */
function hasPlainWs(node: unknown): boolean {
  if (typeof node === 'string') return node.startsWith('ws://');
  if (typeof node === 'object' && node !== null) return Object.values(node).some(hasPlainWs);
  return false;
}

/** The ccxt factory: a ccxt.pro class where ccxt has one (WebSocket), else the REST class. */
export function ccxtExchangeFactory(opts: CcxtFactoryOptions): ExchangeFactory {
  const made = new Map<string, Promise<TickerExchange>>();
  const make = async (id: string): Promise<TickerExchange> => {
    const mod = (await import('ccxt')) as unknown as {
      default?: { pro: Record<string, unknown> } & Record<string, unknown>;
      pro: Record<string, unknown>;
    } & Record<string, unknown>;
    const ccxt = mod.default ?? mod;
    const cls = (ccxt.pro[id] ?? ccxt[id]) as CcxtClass | undefined;
    if (typeof cls !== 'function') throw new Error(`ccxt has no exchange "${id}"`);
    const ex = new cls({ enableRateLimit: true, timeout: opts.timeoutMs, options: opts.options?.[id] ?? {} });
    const urls = opts.urls?.[id];
    if (urls !== undefined) {
      deepMerge(ex.urls, urls);
      // ccxt refuses plain ws:// (a loopback test server) until its http agent is loaded.
      if (hasPlainWs(urls)) await ex.loadHttpProxyAgent?.();
    }
    return ex;
  };
  return (id) => {
    let p = made.get(id);
    if (p === undefined) {
      p = make(id);
      made.set(id, p);
    }
    return p;
  };
}
