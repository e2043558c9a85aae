import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import type { CycleReport } from '../../../src/daemon/trading/quote-cycle.js';
import { sideMissingCause, type AwaitingOrder } from '../../../src/daemon/reporting/side-missing-cause.js';
import type { SideMissingReason } from '../../../src/daemon/reporting/side-missing-reasons.js';

/** Why a side has no quote, from one cycle: the first cause of the fixed order that holds. */

const PAIR = 'BTC/USDC';
const quote = {
  slot: `${PAIR}:BUY:0`,
  pair: PAIR,
  side: 'BUY',
  level: 0,
  price: dec('1'),
  quantity: dec('1'),
};
const own = (o: Partial<{ resting: boolean; cancelling: boolean; unknown: boolean }>) => ({
  key: 'k1',
  slot: quote.slot,
  pair: PAIR,
  side: 'BUY',
  price: dec('1'),
  remaining: dec('1'),
  resting: false,
  unknown: false,
  cancelling: false,
  since: 0,
  ...o,
});

interface Inputs {
  account?: { status: string; authFailing: boolean } | null;
  reasons?: { pair: string | null; rule: string; detail: string }[];
  denied?: { action: { quote: typeof quote }; reason: string; detail: string }[];
  allowed?: { type: 'place'; quote: typeof quote }[];
  quotes?: (typeof quote)[];
  skipped?: { pair: string; side: string | null; reason: string }[];
  own?: ReturnType<typeof own>[];
  deferred?: { slot: string; reason: string }[];
  awaiting?: AwaitingOrder[];
}

function report(i: Inputs): CycleReport {
  return {
    at: 0,
    snapshot: { account: i.account === undefined ? { status: 'ACTIVE', authFailing: false } : i.account },
    own: i.own ?? [],
    verdict: { reasons: i.reasons ?? [], denied: i.denied ?? [], allowed: i.allowed ?? [] },
    strategy: { quotes: i.quotes ?? [quote], skipped: i.skipped ?? [] },
    plan: { deferred: i.deferred ?? [] },
    placed: 0,
  } as unknown as CycleReport;
}

const unknownHere: AwaitingOrder = { key: 'k9', pair: PAIR, side: 'BUY', state: 'UNKNOWN' };
const unknownElsewhere: AwaitingOrder = { key: 'k8', pair: 'ETH/USDC', side: 'SELL', state: 'SUBMITTED' };

describe('sideMissingCause', () => {
  it.each<[string, Inputs, SideMissingReason, string]>([
    ['the key is refused', { account: { status: 'ACTIVE', authFailing: true } }, 'api-key', '401'],
    [
      'the account is suspended',
      { account: { status: 'SUSPENDED', authFailing: false } },
      'account-not-active',
      'SUSPENDED',
    ],
    [
      'an unknown order on the side',
      { awaiting: [unknownHere] },
      'unknown-order',
      'order k9 (BUY BTC/USDC) is UNKNOWN',
    ],
    [
      'the pair is halted',
      { reasons: [{ pair: PAIR, rule: 'stale-book', detail: 'old' }], awaiting: [unknownElsewhere] },
      'risk-halt',
      'stale-book: old',
    ],
    [
      'a guard denied it',
      { denied: [{ action: { quote }, reason: 'max-inventory', detail: 'long' }] },
      'risk-guard',
      'max-inventory',
    ],
    [
      'the strategy skips the side',
      { quotes: [], skipped: [{ pair: PAIR, side: 'BUY', reason: 'no reference' }] },
      'strategy',
      'no reference',
    ],
    ['a cancel is under way', { own: [own({ cancelling: true })] }, 'cancelling', 'k1'],
    [
      'waiting behind an unknown order of another pair',
      { own: [own({})], awaiting: [unknownElsewhere] },
      'unknown-order',
      'waiting behind order k8',
    ],
    ['queued in the pipeline', { own: [own({})] }, 'queued', 'waits its turn'],
    [
      'the balance does not cover it',
      { deferred: [{ slot: quote.slot, reason: 'USDC balance does not cover the order' }] },
      'funds',
      'USDC',
    ],
    ['allowed this cycle', { allowed: [{ type: 'place', quote }] }, 'queued', 'queued this cycle'],
    ['nothing tells', {}, 'other', 'no placement'],
  ])('%s → %s', (_name, inputs, reason, detail) => {
    const cause = sideMissingCause(report(inputs), PAIR, 'BUY', inputs.awaiting ?? []);
    expect(cause.reason).toBe(reason);
    expect(cause.detail).toContain(detail);
  });
});
