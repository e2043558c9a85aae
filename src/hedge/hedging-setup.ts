/**
 * Builds the daemon's {@link Hedging} from its config, or null when no pair is hedged (the
 * default: then nothing of the hedge layer runs, and no journal file is opened). The hedge
 * journal is its own SQLite file beside the order journal (`<store.path>.hedge`), so the order
 * journal's schema never changes for it.
 */
import type { Clock } from '../core/clock.js';
import type { Dec } from '../core/decimal.js';
import type { MmConfig } from '../config/schema.js';
import type { Logger } from '../logging/logger.js';
import { HedgeJournal } from './hedge-journal.js';
import { type HedgeSettings, hedgeSettings } from './hedge-settings.js';
import type { HedgeVenue } from './hedge-venue.js';
import { ccxtHedgeVenue } from './hedge-venue-factory.js';
import { Hedging } from './hedging.js';

/** A pair's hedge venue, when not ccxt's (the lab's simulated one). */
export type HedgeVenueFactory = (s: HedgeSettings) => Promise<HedgeVenue>;

/** What {@link createHedging} needs beside the config. */
export interface HedgingSetup {
  readonly config: Pick<MmConfig, 'hedge' | 'pairs' | 'store'>;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Default: ccxt ({@link ccxtHedgeVenue}). */
  readonly venueFor?: HedgeVenueFactory;
  readonly venueBase: (pair: string) => Dec | null;
  readonly reference: (pair: string) => Dec | null;
}

/** The journal file of the hedge orders for an order journal at `storePath`. */
export function hedgeJournalPath(storePath: string): string {
  return storePath === ':memory:' ? ':memory:' : `${storePath}.hedge`;
}

/** The daemon's hedging, or null when no pair is hedged. */
export function createHedging(o: HedgingSetup): Hedging | null {
  const settings = hedgeSettings(o.config);
  if (settings.size === 0) return null;
  const hedge = o.config.hedge;
  return new Hedging({
    settings,
    venueFor: o.venueFor ?? ((s) => ccxtHedgeVenue(s, hedge)),
    journal: () => new HedgeJournal(hedgeJournalPath(o.config.store.path)),
    clock: o.clock,
    logger: o.logger,
    venueBase: o.venueBase,
    reference: o.reference,
  });
}
