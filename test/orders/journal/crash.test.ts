import { Database } from '../../../src/orders/journal/sqlite-driver.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dec, dec, toWire } from '../../../src/core/decimal.js';
import { decodeJson, encodeJson } from '../../../src/orders/journal/index.js';
import { bundleFixture, spawnChild } from './support/child.js';
import { useTempStores } from './support/temp-store.js';
import { TOY_TERMINAL, applyToy, toyIntent } from './support/toy-order.js';
import type { ToyEvent, ToyOrder, ToySide } from './support/toy-order.js';

/**
 * kill -9 durability. A child process (the real journal code, bundled) writes intents,
 * transitions and fills in a loop and prints every committed seq; the parent SIGKILLs it at a
 * random moment, reopens the store (taking over the stale lock) and checks that everything the
 * child reported is there, that nothing partial is visible, and that every order row equals the
 * replay of its transitions from its intent. Then the next child recovers and continues.
 */

const stores = useTempStores();
const ITERATIONS = 8;

interface Commit {
  event: 'commit';
  seq: number;
  key: string;
  state: string;
  filled: string;
}

type Line = { event: string } & Record<string, unknown>;

interface IntentRow {
  local_key: string;
  slot: string | null;
  pair: string;
  side: ToySide;
  price: string;
  quantity: string;
  client_order_id: string;
}

interface OrderRow {
  local_key: string;
  client_order_id: string;
  order_id: string | null;
  contract_id: string | null;
  state: string;
  filled: string;
  snapshot: string;
  last_seq: number;
}

interface TransitionRow {
  seq: number;
  from_state: string | null;
  to_state: string;
  event_type: string;
  event: string | null;
}

/** Replays every order from its intent and checks the whole store. Returns the counter and max seq. */
function verifyStore(path: string): { counter: number; lastSeq: number; orders: Map<string, OrderRow> } {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
    const intents = new Map(
      (db.prepare('SELECT * FROM intents').all() as IntentRow[]).map((i) => [i.local_key, i]),
    );
    const orders = new Map(
      (db.prepare('SELECT * FROM orders').all() as OrderRow[]).map((o) => [o.local_key, o]),
    );
    // An intent and its order row are one transaction: neither exists without the other.
    expect([...orders.keys()].sort()).toEqual([...intents.keys()].sort());
    const byKey = db.prepare('SELECT * FROM transitions WHERE local_key = ? ORDER BY seq');
    const contractsOf = db.prepare(
      'SELECT contract_id FROM contract_ids WHERE local_key = ? ORDER BY seq, rowid',
    );
    const fillsOf = db.prepare('SELECT filled, delta FROM fills WHERE local_key = ? ORDER BY seq');

    for (const [key, row] of orders) {
      const intent = intents.get(key)!;
      let replayed = toyIntent({
        key,
        slot: intent.slot,
        pair: intent.pair,
        side: intent.side,
        price: dec(intent.price),
        quantity: dec(intent.quantity),
        clientOrderId: intent.client_order_id,
      });
      const replayedFills: { filled: string; delta: string }[] = [];
      const log = byKey.all(key) as TransitionRow[];
      expect(log[0]).toMatchObject({ from_state: null, to_state: 'INTENT', event_type: 'Created' });
      for (let i = 1; i < log.length; i++) {
        const t = log[i]!;
        expect(t.from_state).toBe(log[i - 1]!.to_state);
        const step = applyToy(replayed, decodeJson(t.event!) as ToyEvent);
        replayed = step.order;
        expect(t.to_state).toBe(replayed.state);
        for (const f of step.fills)
          replayedFills.push({ filled: toWire(f.filled), delta: toWire(f.quantity) });
      }
      expect(row.last_seq).toBe(log.at(-1)!.seq);
      expect(decodeJson(row.snapshot)).toEqual(decodeJson(encodeJson(replayed)));
      expect(row).toMatchObject({
        state: replayed.state,
        filled: toWire(replayed.filled),
        order_id: replayed.orderId,
        contract_id: replayed.contractIds.at(-1) ?? null,
      });
      expect((contractsOf.all(key) as { contract_id: string }[]).map((c) => c.contract_id)).toEqual(
        replayed.contractIds,
      );
      // Fills commit with their transition: exactly the replayed ones, summing to `filled`.
      const stored = fillsOf.all(key) as { filled: string; delta: string }[];
      expect(stored).toEqual(replayedFills);
      expect(stored.reduce((s, f) => s.plus(f.delta), new Dec(0)).eq(dec(row.filled))).toBe(true);
    }
    const counter = Number(
      (db.prepare("SELECT value FROM meta WHERE key = 'client_order_counter'").get() as { value: string })
        .value,
    );
    const lastSeq =
      (db.prepare('SELECT MAX(seq) AS s FROM transitions').get() as { s: number | null }).s ?? 0;
    return { counter, lastSeq, orders };
  } finally {
    db.close();
  }
}

describe('journal survives kill -9', () => {
  let writer: { file: string; dispose: () => void };
  beforeAll(async () => {
    writer = await bundleFixture('crash-writer');
  });
  afterAll(() => writer.dispose());

  it(`keeps every reported commit and no partial one across ${ITERATIONS} SIGKILLs`, async () => {
    const path = stores.tempStore();
    let prevCounter = 0;
    let prevSeq = 0;
    let totalCommits = 0;
    for (let i = 0; i < ITERATIONS; i++) {
      const child = spawnChild(writer.file, [path]);
      const ready = (await child.waitFor((l) => (l as Line).event === 'ready')) as Line;
      // The parent's reopen took the killed child's stale lock over and released it cleanly.
      expect(ready.stale).toBeNull();
      expect(ready.lastSeq).toBe(prevSeq);
      expect(ready.counter).toBe(prevCounter);
      // Kill somewhere between "still recovering" and "deep in new orders".
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 250)));
      child.proc.kill('SIGKILL');
      const exit = await child.exited;
      expect(exit.signal, exit.stderr).toBe('SIGKILL');

      const lines = child.lines as Line[];
      const commits = lines.filter((l): l is Line & Commit => l.event === 'commit');
      const lastCommit = commits.at(-1);
      const reportedCounter = Math.max(
        prevCounter,
        ...lines.filter((l) => l.event === 'suffix').map((l) => Number(l.counter)),
      );
      totalCommits += commits.length;

      const journal = stores.open(path);
      expect(journal.staleLock?.pid).toBe(child.proc.pid);
      expect(journal.integrityCheck()).toEqual([]);
      const { counter, lastSeq, orders } = verifyStore(path);

      // Never backwards; at most one committed-but-unreported counter bump / transition.
      expect(counter).toBeGreaterThanOrEqual(reportedCounter);
      expect(counter - reportedCounter).toBeLessThanOrEqual(1);
      expect(lastSeq).toBeGreaterThanOrEqual(prevSeq);
      if (lastCommit !== undefined) {
        expect(lastSeq).toBeGreaterThanOrEqual(lastCommit.seq);
        expect(lastSeq - lastCommit.seq).toBeLessThanOrEqual(1);
        const row = orders.get(lastCommit.key)!;
        expect(row.last_seq).toBeGreaterThanOrEqual(lastCommit.seq);
        if (row.last_seq === lastCommit.seq)
          expect(row).toMatchObject({ state: lastCommit.state, filled: lastCommit.filled });
      }
      // Recovery sees exactly the non-terminal orders of the replayed store.
      const open = [...orders.values()].filter((o) => !(TOY_TERMINAL as readonly string[]).includes(o.state));
      expect(journal.loadOpenOrders(TOY_TERMINAL).map((o) => o.key)).toEqual(open.map((o) => o.local_key));
      expect(
        journal.loadOpenOrders(TOY_TERMINAL).every((o) => (o.order satisfies ToyOrder).quantity.gt(0)),
      ).toBe(true);
      journal.close();

      prevCounter = counter;
      prevSeq = lastSeq;
    }
    // The kills must have landed while the child was writing, not only before it started.
    expect(totalCommits).toBeGreaterThan(ITERATIONS);
  });
});
