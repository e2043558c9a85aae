/**
 * The whole configuration, as `loadConfig` returns it (deeply frozen).
 *
 * To add a section (the quoting daemon's `strategy` and `risk`, say): write
 * `sections/<name>.ts` exporting `<Name>Config` and `<name>Schema: SchemaOf<<Name>Config>`, then
 * add one line to this interface and one to {@link configSchema}, and its defaults to
 * `config/default.json` (a test checks that file against the schema).
 */
import { type AnySection, type SchemaOf, leaves } from './define.js';
import { type ControlConfig, controlSchema } from './sections/control.js';
import { type ExecutionConfig, executionSchema } from './sections/execution.js';
import { type FirmConfig, firmSchema } from './sections/firm.js';
import { type HedgeConfig, hedgeSchema } from './sections/hedge.js';
import { type LogConfig, logSchema } from './sections/log.js';
import { type MarketConfig, marketSchema } from './sections/market.js';
import { type MetricsConfig, metricsSchema } from './sections/metrics.js';
import { pairsLeaf } from './sections/pairs.js';
import { type RecoveryConfig, recoverySchema } from './sections/recovery.js';
import { type RiskConfig, riskSchema } from './sections/risk.js';
import { type ShutdownConfig, shutdownSchema } from './sections/shutdown.js';
import { type SigningConfig, signingSchema } from './sections/signing.js';
import { type StoreConfig, storeSchema } from './sections/store.js';
import { type StrategyConfig, strategySchema } from './sections/strategy.js';
import { type VenueConfig, venueSchema } from './sections/venue.js';
import { type WatchdogConfig, watchdogSchema } from './sections/watchdog.js';

export type { ControlConfig } from './sections/control.js';
export type { ExecutionConfig } from './sections/execution.js';
export type { FirmConfig, PartyConfig } from './sections/firm.js';
export type { HedgeConfig, PairHedgeConfig } from './sections/hedge.js';
export type { LogConfig } from './sections/log.js';
export type { MarketConfig } from './sections/market.js';
export type { MetricsConfig } from './sections/metrics.js';
export type { RecoveryConfig, UnknownOrderPolicy } from './sections/recovery.js';
export type { PairLimitConfig, RiskConfig } from './sections/risk.js';
export type { ShutdownConfig } from './sections/shutdown.js';
export type { PublicKeyFormatName, SigningConfig } from './sections/signing.js';
export type { StoreConfig } from './sections/store.js';
export type { StrategyConfig } from './sections/strategy.js';
export type { HeartbeatSource, WatchdogConfig } from './sections/watchdog.js';
export type { AuthHeaderMode, VenueConfig, VenueRetryConfig, VenueTimeoutsConfig } from './sections/venue.js';

/** See the module doc. */
export interface MmConfig {
  readonly venue: VenueConfig;
  readonly signing: SigningConfig;
  readonly store: StoreConfig;
  readonly metrics: MetricsConfig;
  readonly control: ControlConfig;
  readonly log: LogConfig;
  readonly pairs: readonly string[];
  readonly recovery: RecoveryConfig;
  readonly shutdown: ShutdownConfig;
  readonly execution: ExecutionConfig;
  readonly strategy: StrategyConfig;
  readonly market: MarketConfig;
  readonly risk: RiskConfig;
  readonly watchdog: WatchdogConfig;
  readonly firm: FirmConfig;
  readonly hedge: HedgeConfig;
}

/** The convict schema: every key has a `doc`, a `format` and a `default`. */
export const configSchema: SchemaOf<MmConfig> = {
  venue: venueSchema,
  signing: signingSchema,
  store: storeSchema,
  metrics: metricsSchema,
  control: controlSchema,
  log: logSchema,
  pairs: pairsLeaf,
  recovery: recoverySchema,
  shutdown: shutdownSchema,
  execution: executionSchema,
  strategy: strategySchema,
  market: marketSchema,
  risk: riskSchema,
  watchdog: watchdogSchema,
  firm: firmSchema,
  hedge: hedgeSchema,
};

/** The environment variable listing extra config files (comma-separated, applied in order). */
export const CONFIG_FILES_ENV = 'LEDGER_MM_CONFIG';

/** Every environment variable bound to a key, with its key. */
export function envBindings(): ReadonlyArray<{ readonly env: string; readonly key: string }> {
  return leaves(configSchema as unknown as AnySection).flatMap(({ key, leaf }) =>
    leaf.env === undefined ? [] : [{ env: leaf.env, key }],
  );
}
