import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Database } from '../../../../src/orders/journal/sqlite-driver.js';
import { afterEach } from 'vitest';
import { openJournal } from '../../../../src/orders/journal/index.js';
import type { Journal, JournalOptions } from '../../../../src/orders/journal/index.js';
import type { ToyOrder } from './toy-order.js';

/** A fixed, advancing test clock: every read is 1 ms later. */
export function steppingClock(start = 1_700_000_000_000): { now(): number } {
  let t = start;
  return { now: () => t++ };
}

/**
 * Temporary stores for one test file: `tempStore()` returns a fresh path (in a nested directory
 * that does not exist yet); `open()` opens a journal of toy orders that is closed after the test.
 */
export function useTempStores() {
  const dirs: string[] = [];
  const journals: Journal<ToyOrder>[] = [];
  const raws: Database[] = [];
  afterEach(() => {
    for (const j of journals.splice(0)) j.close();
    for (const r of raws.splice(0)) r.close();
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });
  return {
    tempStore(): string {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-mm-journal-'));
      dirs.push(dir);
      return path.join(dir, 'nested', 'dir', 'journal.sqlite');
    },
    open(storePath: string, options: Partial<JournalOptions<ToyOrder>> = {}): Journal<ToyOrder> {
      const j = openJournal<ToyOrder>({ path: storePath, clock: steppingClock(), ...options });
      journals.push(j);
      return j;
    },
    /** A raw read-only connection, for checks independent of the journal's own readers. */
    raw(storePath: string): Database {
      const db = new Database(storePath, { readonly: true, fileMustExist: true });
      raws.push(db);
      return db;
    },
  };
}

/** Row counts of every journal table. */
export function tableCounts(db: Database): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of ['intents', 'orders', 'transitions', 'contract_ids', 'order_ids', 'fills', 'meta']) {
    out[t] = (db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n;
  }
  return out;
}
