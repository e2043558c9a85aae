import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cancelResult } from '../../src/cli/support/cancel-report.js';
import { dec } from '../../src/core/decimal.js';
import { TERMINAL_STATES, type TrackedOrder } from '../../src/orders/fsm/index.js';
import { journalWriteAhead, openJournal } from '../../src/orders/journal/index.js';
import { OrderRegistry } from '../../src/orders/order-registry.js';
import type { SimHarness } from '../support/sim-harness.js';
import { useOperatorEnv, type OperatorEnv } from './support/operator-env.js';

let t: OperatorEnv;
let h: SimHarness;
let env: NodeJS.ProcessEnv;
let storePath: string;

useOperatorEnv('cancel-all', (e) => {
  t = e;
  ({ h, env, storePath } = e);
});

function resting(): string[] {
  return h.venue.truth
    .restingOrders(h.partyId)
    .map((o) => o.orderId)
    .sort();
}

function cancelCalls(): number {
  return h.venue.truth.calls().filter((c) => c.endpoint === 'cancelPrepare' || c.commandKind === 'cancel')
    .length;
}

describe('ledger-mm cancel-all', () => {
  it('--yes cancels every resting order (journaled and foreign) and leaves nothing resting', async () => {
    const ours = await t.placeThroughJournal([
      { side: 'BUY', price: '60000', quantity: '0.01' },
      { side: 'SELL', price: '70000', quantity: '0.01' },
    ]);
    const foreign = await h.place({ side: 'BUY', price: '59000', quantity: '0.01' });
    const ids = [...ours.map((o) => o.orderId!), foreign.orderId];
    expect(resting()).toEqual([...ids].sort());

    const run = await t.cli(['cancel-all', '--yes']);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/3 resting orders, cancelling \(at most 4 at once\)/);
    for (const id of ids) expect(run.out).toMatch(new RegExp(`cancelled\\s+${id}`));
    expect(run.out).toMatch(/3 cancelled/);
    expect(run.out).toMatch(/re-listed: nothing is left resting/);

    // Ground truth: nothing rests, and each order's cancel committed.
    expect(resting()).toEqual([]);
    for (const id of ids) {
      expect(h.venue.truth.order(id)!.status).toBe('CANCELLED');
      expect(
        h.venue.truth.commits().filter((c) => c.kind === 'cancel' && c.ok && c.orderId === id),
      ).toHaveLength(1);
    }
    // Every cancel is journaled, the foreign order's too (adopted first); the lock is released.
    const j = openJournal<TrackedOrder>({ path: storePath });
    try {
      expect(j.loadOpenOrders(TERMINAL_STATES)).toEqual([]);
      for (const id of ids) expect(j.findByOrderId(id)?.state).toBe('CANCELLED');
      expect(j.findByOrderId(foreign.orderId)?.foreign).toBe(true);
      const cancelling = j.transitions().filter((t) => t.toState === 'CANCELLING');
      expect(new Set(cancelling.map((t) => t.key)).size).toBe(3);
    } finally {
      j.close();
    }
  });

  it('without --yes is a dry run: lists what it would cancel and cancels nothing', async () => {
    const [ours] = await t.placeThroughJournal([{ side: 'BUY', price: '60000', quantity: '0.01' }]);
    const foreign = await h.place({ side: 'SELL', price: '70000', quantity: '0.02' });
    const before = resting();

    const run = await t.cli(['cancel-all']);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/dry run/);
    expect(run.out).toMatch(new RegExp(`${ours!.orderId}\\s.*\\sOPEN\\s.*\\sOPEN\\n`));
    expect(run.out).toMatch(new RegExp(`${foreign.orderId}\\s.*FOREIGN`));
    expect(run.out).toMatch(/Run again with --yes to cancel 2 orders/);

    expect(resting()).toEqual(before);
    expect(cancelCalls()).toBe(0);
  });

  it('refuses while another journal (a daemon) holds the store, before cancelling anything', async () => {
    await t.placeThroughJournal([{ side: 'BUY', price: '60000', quantity: '0.01' }]);
    const before = resting();
    const callsBefore = h.venue.truth.calls().length;
    const daemon = openJournal<TrackedOrder>({ path: storePath });
    try {
      const run = await t.cli(['cancel-all', '--yes']);
      expect(run.code).toBe(1);
      expect(run.err).toContain(
        'stop the daemon first (or send it SIGTERM: it cancels its orders on shutdown)',
      );
      expect(run.out).toBe('');
      // Nothing was sent at all: the lock is checked before the first venue call.
      expect(h.venue.truth.calls()).toHaveLength(callsBefore);

      // The dry run still works next to the daemon, and warns that --yes would refuse.
      const dry = await t.cli(['cancel-all']);
      expect(dry.code).toBe(0);
      expect(dry.out).toMatch(/holds the store .* --yes would refuse: stop the daemon first/);
    } finally {
      daemon.close();
    }
    expect(resting()).toEqual(before);
    expect(cancelCalls()).toBe(0);
  });

  it('cancels after a crash whose lock note names another host (a recreated container): no daemon holds the store', async () => {
    const ours = await t.placeThroughJournal([{ side: 'BUY', price: '60000', quantity: '0.01' }]);
    // What a daemon killed with SIGKILL in the old container left: its note, no live holder.
    fs.writeFileSync(
      `${storePath}.lock`,
      JSON.stringify({ pid: 1, host: 'ledger-mm-old-7d4f9', startedAt: Date.now() - 60_000, nonce: 'gone' }),
    );
    const dry = await t.cli(['cancel-all']);
    expect(dry.code).toBe(0);
    expect(dry.out).not.toMatch(/holds the store/);
    const run = await t.cli(['cancel-all', '--yes']);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toMatch(new RegExp(`cancelled\\s+${ours[0]!.orderId!}`));
    expect(resting()).toEqual([]);
  });

  it('--pair cancels only that pair; the other pair keeps resting', async () => {
    const [btc, eth] = await t.placeThroughJournal([
      { side: 'BUY', price: '60000', quantity: '0.01' },
      { pair: 'ETH/USDC', side: 'BUY', price: '3000', quantity: '0.1' },
    ]);
    const run = await t.cli(['cancel-all', '--pair', 'ETH/USDC', '--yes']);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(new RegExp(`cancelled\\s+${eth!.orderId}`));
    expect(run.out).not.toContain(btc!.orderId!);
    expect(resting()).toEqual([btc!.orderId]);
    expect(h.venue.truth.order(eth!.orderId!)!.status).toBe('CANCELLED');
  });

  it("an order cancelled behind the journal's back is not cancelled again; the journal is settled", async () => {
    const [ours] = await t.placeThroughJournal([{ side: 'BUY', price: '60000', quantity: '0.01' }]);
    // The venue state moves on behind the journal's back: the order is cancelled by someone else.
    await h.cancel(h.venue.truth.order(ours!.orderId!)!.contractId!);
    expect(resting()).toEqual([]);
    // Nothing rests, so there is nothing to cancel; the journal still thinks it is OPEN and
    // the reconciliation settles it.
    const run = await t.cli(['cancel-all', '--yes']);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/0 resting orders/);
    const j = openJournal<TrackedOrder>({ path: storePath, readOnly: true });
    try {
      expect(j.findByOrderId(ours!.orderId!)?.state).toBe('CANCELLED');
    } finally {
      j.close();
    }
  });

  it('reports a stranded order as stranded, cancels the rest, and exits 1 while it still rests', async () => {
    const [buy, sell] = await t.placeThroughJournal([
      { side: 'BUY', price: '60000', quantity: '0.01' },
      { side: 'SELL', price: '70000', quantity: '0.01' },
    ]);
    // The party withdraws the USDC backing the BUY: the venue strands it; the daemon had
    // already found out (its cancels never took effect) and journaled it STRANDED.
    expect(h.venue.operator.withdraw(h.slug, 'USDC', dec('100000')).strandedOrderIds).toEqual([buy!.orderId]);
    const j = openJournal<TrackedOrder>({ path: storePath });
    try {
      const registry = new OrderRegistry({ writeAhead: journalWriteAhead(j) });
      registry.restore(j.get(buy!.key!)!.order);
      const at = Date.now();
      registry.apply(buy!.key!, { type: 'CancelRequested', reason: 'test', at });
      registry.apply(buy!.key!, { type: 'CancelPrepareStarted', at });
      registry.apply(buy!.key!, { type: 'CancelSubmitted', at });
      registry.apply(buy!.key!, { type: 'CancelStranded', detail: 'funds withdrawn', at });
    } finally {
      j.close();
    }

    const run = await t.cli(['cancel-all', '--yes']);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(new RegExp(`stranded\\s+${buy!.orderId}.*the venue's operator must clear it`));
    expect(run.out).toMatch(new RegExp(`cancelled\\s+${sell!.orderId}`));
    expect(run.out).toMatch(/1 stranded, 1 cancelled|1 cancelled, 1 stranded/);
    expect(run.out).toMatch(new RegExp(`re-listed: 1 order still resting[^]*${buy!.orderId}.*STRANDED`));

    expect(resting()).toEqual([buy!.orderId]);
    expect(h.venue.truth.order(sell!.orderId!)!.status).toBe('CANCELLED');
    // No cancel of the stranded order was even prepared (it cannot complete): one cancel, the SELL's.
    const cancels = h.venue.truth.calls().filter((c) => c.endpoint === 'cancelPrepare');
    expect(cancels).toHaveLength(1);
    expect(
      h.venue.truth
        .commits()
        .filter((c) => c.kind === 'cancel')
        .map((c) => c.orderId),
    ).toEqual([sell!.orderId]);
  });

  it('ends with exit 2 before any venue call on invalid configuration or without a signing key', async () => {
    const bad = await t.cli(['cancel-all', '--yes'], { ...env, LEDGER_MM_BASE_URL: 'not a url' });
    expect(bad.code).toBe(2);
    const noKey = await t.cli(['cancel-all', '--yes'], { ...env, LEDGER_MM_SIGNING_KEY_FILE: '' });
    expect(noKey.code).toBe(2);
    expect(noKey.err).toMatch(/no signing key configured/);
    const noApiKey = await t.cli(['cancel-all'], { ...env, LEDGER_MM_API_KEY: '' });
    expect(noApiKey.code).toBe(2);
    expect(h.venue.truth.calls()).toHaveLength(0);
  });

  it('names each outcome: cancelled, filled, already gone, stranded, failed', () => {
    const base = { key: 'k', orderId: 'o', filled: null };
    expect(cancelResult({ ...base, kind: 'cancelled' }, true).result).toBe('cancelled');
    expect(cancelResult({ ...base, kind: 'cancelled' }, false).result).toBe('already gone');
    expect(cancelResult({ ...base, kind: 'filled' }, true).result).toBe('filled');
    expect(cancelResult({ ...base, kind: 'ended', state: 'EXPIRED' }, true)).toEqual({
      result: 'already gone',
      detail: 'ended EXPIRED',
    });
    expect(cancelResult({ ...base, kind: 'stranded', attempts: 3 }, true).result).toBe('stranded');
    expect(cancelResult({ ...base, kind: 'failed', code: 'RATE_LIMITED', attempts: 5 }, true)).toEqual({
      result: 'failed',
      detail: 'RATE_LIMITED after 5 attempts',
    });
    expect(cancelResult({ ...base, kind: 'aborted', reason: 'closed' }, true).result).toBe('failed');
  });

  it('--help prints the usage', async () => {
    const run = await t.cli(['cancel-all', '--help']);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/^Usage: ledger-mm cancel-all/);
    expect(run.out).toMatch(/--yes/);
  });
});
