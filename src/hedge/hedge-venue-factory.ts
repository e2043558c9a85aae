/**
 * The production hedge venue of a pair: the ccxt exchange its settings name, with the hedge
 * credentials (`hedge-credentials.ts`), wrapped in {@link CcxtHedgeVenue}. A perpetual uses ccxt's
 * `swap` markets. `exchange: "sim"` is the lab's simulated hedge venue, which only `simulate` and
 * the lab wire (the daemon's `hedgeVenue` option): here it is refused with that reason.
 */
import type { HedgeConfig } from '../config/schema.js';
import { CcxtHedgeVenue, type CcxtTradingExchange } from './ccxt-hedge-venue.js';
import { ccxtTradingExchange, loadHedgeCredentials } from './hedge-credentials.js';
import type { HedgeSettings } from './hedge-settings.js';
import type { HedgeVenue } from './hedge-venue.js';

/** Options of {@link ccxtExchangeFor}. */
export interface CcxtExchangeOptions {
  /** Endpoint overrides (tests: a local server on 127.0.0.1). */
  readonly urls?: Readonly<Record<string, unknown>>;
  /** Extra ccxt options (tests: no currency or margin loads). */
  readonly options?: Readonly<Record<string, unknown>>;
  /** Build it without credentials when none are configured (`check` of a dryRun pair). */
  readonly credentialsOptional?: boolean;
}

/** The ccxt exchange of `s`, markets not loaded yet (the first call loads them). */
export async function ccxtExchangeFor(
  s: HedgeSettings,
  hedge: HedgeConfig,
  o: CcxtExchangeOptions = {},
): Promise<CcxtTradingExchange> {
  if (s.exchange === 'sim')
    throw new Error(
      'hedge exchange "sim" is the simulated hedge venue of simulate; the daemon needs a ccxt exchange',
    );
  const creds =
    o.credentialsOptional === true && hedge.apiKey === '' && hedge.apiKeyFile === ''
      ? { apiKey: '', secret: '' }
      : loadHedgeCredentials(hedge);
  // recvWindow: the exchange refuses an order older than the timeout, so one left on the wire by
  // a dead process cannot execute after recovery has called it never-sent (hedge-executor.ts).
  const options = {
    defaultType: s.market === 'perp' ? 'swap' : 'spot',
    recvWindow: s.timeoutMs,
    ...o.options,
  };
  return (await ccxtTradingExchange(s.exchange, creds, {
    timeoutMs: s.timeoutMs,
    options,
    ...(o.urls === undefined ? {} : { urls: o.urls }),
  })) as CcxtTradingExchange;
}

/** The hedge venue of `s` through ccxt. */
export async function ccxtHedgeVenue(s: HedgeSettings, hedge: HedgeConfig): Promise<HedgeVenue> {
  const exchange = await ccxtExchangeFor(s, hedge);
  return new CcxtHedgeVenue({ exchange, kind: s.market, spotBaselineBase: s.spotBaselineBase });
}
