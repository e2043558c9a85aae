/**
 * `ledger-mm check`'s lines for the hedge venue of each hedged pair, read-only: the exchange's
 * markets load, the symbol is one of them, `hedge.minOrderBase` is not under the market's own
 * minimum, and the credentials are accepted (a balance read; not for a `dryRun` pair, which
 * sends nothing). Nothing is placed. A pair on the simulated venue (`exchange: "sim"`) is skipped:
 * it exists only under `simulate`.
 */
import { Dec } from '../core/decimal.js';
import type { HedgeConfig } from '../config/schema.js';
import type { CcxtTradingExchange } from './ccxt-hedge-venue.js';
import type { HedgeSettings } from './hedge-settings.js';
import { ccxtExchangeFor } from './hedge-venue-factory.js';

/** One line of the report. */
export interface HedgeCheckResult {
  readonly name: string;
  readonly status: 'pass' | 'fail' | 'warn' | 'skip';
  readonly detail: string;
}

/** The part of a ccxt market the check reads. */
interface CheckedMarket {
  readonly limits?: { readonly amount?: { readonly min?: number } };
}

/** The ccxt exchange of a pair's settings (tests point it at 127.0.0.1). */
export type CheckExchangeFor = (s: HedgeSettings, hedge: HedgeConfig) => Promise<CcxtTradingExchange>;

const describe = (e: unknown): string => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));

/** The lines of every hedged pair, in order; none without a hedged pair. */
export async function checkHedgeVenues(
  settings: ReadonlyMap<string, HedgeSettings>,
  hedge: HedgeConfig,
  exchangeFor: CheckExchangeFor = (s, h) => ccxtExchangeFor(s, h, { credentialsOptional: s.dryRun }),
): Promise<HedgeCheckResult[]> {
  const out: HedgeCheckResult[] = [];
  for (const s of settings.values()) out.push(...(await checkPair(s, hedge, exchangeFor)));
  return out;
}

async function checkPair(
  s: HedgeSettings,
  hedge: HedgeConfig,
  exchangeFor: CheckExchangeFor,
): Promise<HedgeCheckResult[]> {
  const name = (what: string): string => `hedge ${s.pair} ${what}`;
  if (s.exchange === 'sim')
    return [
      {
        name: name('venue'),
        status: 'skip',
        detail: 'exchange "sim" is the simulated hedge venue of simulate',
      },
    ];
  let ex: CcxtTradingExchange;
  let markets: Readonly<Record<string, CheckedMarket>>;
  try {
    ex = await exchangeFor(s, hedge);
    markets = (await ex.loadMarkets()) as Readonly<Record<string, CheckedMarket>>;
  } catch (e) {
    return [{ name: name('markets'), status: 'fail', detail: `${s.exchange}: ${describe(e)}` }];
  }
  const results: HedgeCheckResult[] = [
    {
      name: name('markets'),
      status: 'pass',
      detail: `${s.exchange}: ${Object.keys(markets).length} markets`,
    },
  ];
  const market = markets[s.symbol];
  if (market === undefined) {
    results.push({ name: name('symbol'), status: 'fail', detail: `${s.exchange} has no market ${s.symbol}` });
  } else {
    const min = market.limits?.amount?.min;
    const exMin = typeof min === 'number' && Number.isFinite(min) ? new Dec(String(min)) : null;
    const tooSmall = exMin !== null && s.rules.minOrderBase.lt(exMin);
    results.push({
      name: name('symbol'),
      status: tooSmall ? 'warn' : 'pass',
      detail: tooSmall
        ? `${s.symbol}: hedge.minOrderBase ${s.rules.minOrderBase.toFixed()} is under the market's minimum ${exMin.toFixed()} (smaller hedges are refused)`
        : `${s.symbol}, minimum order ${exMin === null ? 'not stated' : exMin.toFixed()}`,
    });
  }
  if (s.dryRun) {
    results.push({ name: name('credentials'), status: 'skip', detail: 'dryRun: nothing is sent' });
    return results;
  }
  try {
    const balance = await ex.fetchBalance();
    const base = market === undefined ? null : ex.market(s.symbol);
    const held = (c: string): string => String(balance.total?.[c] ?? 0);
    results.push({
      name: name('credentials'),
      status: 'pass',
      detail:
        base === null
          ? 'the key reads the account'
          : `balances ${base.base} ${held(base.base)}, ${base.quote} ${held(base.quote)}`,
    });
  } catch (e) {
    results.push({
      name: name('credentials'),
      status: 'fail',
      detail: `balance read refused: ${describe(e)}`,
    });
  }
  return results;
}
