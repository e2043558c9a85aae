/**
 * The hedge tests' one process of the hedging loop: a hedger of BTC/USDC on BTC/USDT over a journal
 * file, a venue and a clock, with the every-fill rules both crash tests use. Each call is one
 * process; a second call on the same file is the restart. `closeJournals` closes every journal
 * opened so far (after each test).
 */
import type { Clock } from '../../../src/core/clock.js';
import { Dec } from '../../../src/core/decimal.js';
import type { HedgeRules } from '../../../src/hedge/hedge-decision.js';
import { HedgeExecutor } from '../../../src/hedge/hedge-executor.js';
import { HedgeJournal } from '../../../src/hedge/hedge-journal.js';
import type { HedgeVenue } from '../../../src/hedge/hedge-venue.js';
import { Hedger } from '../../../src/hedge/hedger.js';

const d = (v: string | number): Dec => new Dec(v);

/** Hedge every fill of at least 0.001 BTC, up to 5 a hedge and a position of 10. */
export const EVERY_FILL_RULES: HedgeRules = {
  mode: 'every-fill',
  thresholdBase: d(0),
  minOrderBase: d('0.001'),
  maxOrderBase: d(5),
  maxPositionBase: d(10),
  maxSlippageBps: 20,
  stepBase: d('0.0001'),
};

/** The executor's call timeout, ms (also its receive window, as the daemon sets it). */
export const HEDGE_TIMEOUT_MS = 5_000;

const journals: HedgeJournal[] = [];
let ids = 0;

/**
 * One process's hedger on `file`; client order ids `<idPrefix>-<n>`, unique across processes.
 * `rules`: the every-fill rules unless given.
 */
export function hedgerOn(
  file: string,
  venue: HedgeVenue,
  clock: Clock,
  idPrefix: string,
  rules: HedgeRules = EVERY_FILL_RULES,
) {
  const journal = new HedgeJournal(file);
  journals.push(journal);
  const executor = new HedgeExecutor({
    pair: 'BTC/USDC',
    symbol: 'BTC/USDT',
    venue,
    journal,
    clock,
    timeoutMs: HEDGE_TIMEOUT_MS,
    newId: () => `${idPrefix}-${++ids}`,
    dryRun: false,
  });
  const hedger = new Hedger({
    pair: 'BTC/USDC',
    symbol: 'BTC/USDT',
    rules,
    venue,
    executor,
    clock,
  });
  return { journal, executor, hedger };
}

/** Closes every journal {@link hedgerOn} opened. */
export function closeJournals(): void {
  for (const j of journals.splice(0)) j.close();
}
