import fs from 'node:fs';
import { Database } from '../../../src/orders/journal/sqlite-driver.js';
import { describe, expect, it } from 'vitest';
import { JournalSchemaError, SCHEMA_VERSION } from '../../../src/orders/journal/index.js';
import {
  JOURNAL_CACHE_KIB,
  MIGRATIONS,
  applyPragmas,
  migrate,
  schemaVersion,
} from '../../../src/orders/journal/schema.js';
import type { Migration } from '../../../src/orders/journal/schema.js';
import { useTempStores } from './support/temp-store.js';
import { toy } from './support/toy-order.js';

const stores = useTempStores();

function rawWritable(path: string): Database {
  const db = new Database(path);
  applyPragmas(db, false);
  return db;
}

describe('journal schema', () => {
  it('creates the store, its parent directories and every table at the current version', () => {
    const path = stores.tempStore();
    expect(fs.existsSync(path)).toBe(false);
    const j = stores.open(path);
    expect(j.schema).toEqual({ from: 0, to: SCHEMA_VERSION, applied: MIGRATIONS.map((m) => m.version) });
    const raw = stores.raw(path);
    const tables = (
      raw.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all() as {
        name: string;
      }[]
    ).map((t) => t.name);
    expect(tables).toEqual(
      expect.arrayContaining([
        'contract_ids',
        'fills',
        'intents',
        'meta',
        'order_ids',
        'orders',
        'schema_version',
        'transitions',
      ]),
    );
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(j.integrityCheck()).toEqual([]);
  });

  it('sets WAL, synchronous = FULL and foreign keys on every connection', () => {
    const path = stores.tempStore();
    stores.open(path).close();
    const db = rawWritable(path);
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(db.pragma('locking_mode', { simple: true })).toBe('normal');
    } finally {
      db.close();
    }
  });

  it("caps each connection's page cache at 2 000 KiB, not the driver's build default of 16 000", () => {
    const path = stores.tempStore();
    stores.open(path).close();
    const db = new Database(path);
    try {
      // better-sqlite3's build default: a daemon's cache grew with its journal to about 16 MiB.
      expect(db.pragma('cache_size', { simple: true })).toBe(-16_000);
      for (const readOnly of [false, true]) {
        applyPragmas(db, readOnly);
        expect(db.pragma('cache_size', { simple: true })).toBe(-JOURNAL_CACHE_KIB);
      }
      expect(JOURNAL_CACHE_KIB).toBe(2_000);
    } finally {
      db.close();
    }
  });

  it('migrates idempotently: reopening and re-running apply nothing and keep the data', () => {
    const path = stores.tempStore();
    const first = stores.open(path);
    first.recordIntent(toy('mm-1'));
    first.close();
    const second = stores.open(path);
    expect(second.schema).toEqual({ from: SCHEMA_VERSION, to: SCHEMA_VERSION, applied: [] });
    expect(second.loadAll().map((o) => o.key)).toEqual(['mm-1']);
    second.close();

    const db = rawWritable(path);
    try {
      expect(migrate(db, 0)).toEqual({ from: SCHEMA_VERSION, to: SCHEMA_VERSION, applied: [] });
      expect(db.prepare('SELECT version FROM schema_version').all()).toEqual(
        MIGRATIONS.map((m) => ({ version: m.version })),
      );
    } finally {
      db.close();
    }
  });

  it('applies a later forward migration once, keeping existing rows', () => {
    const path = stores.tempStore();
    const j = stores.open(path);
    j.recordIntent(toy('mm-1'));
    j.close();
    const next = SCHEMA_VERSION + 1;
    const v2: Migration = {
      version: next,
      description: 'tag orders',
      up: "ALTER TABLE orders ADD COLUMN tag TEXT NOT NULL DEFAULT 'none'",
    };
    const db = rawWritable(path);
    try {
      expect(migrate(db, 0, [...MIGRATIONS, v2])).toEqual({
        from: SCHEMA_VERSION,
        to: next,
        applied: [next],
      });
      expect(migrate(db, 0, [...MIGRATIONS, v2]).applied).toEqual([]);
      expect(db.prepare('SELECT local_key, tag FROM orders').all()).toEqual([
        { local_key: 'mm-1', tag: 'none' },
      ]);
    } finally {
      db.close();
    }
  });

  it('rolls a failing migration back completely', () => {
    const path = stores.tempStore();
    stores.open(path).close();
    const broken: Migration = {
      version: SCHEMA_VERSION + 1,
      description: 'half done',
      up: (db) => {
        db.exec('CREATE TABLE half (x TEXT) STRICT');
        throw new Error('boom');
      },
    };
    const db = rawWritable(path);
    try {
      expect(() => migrate(db, 0, [...MIGRATIONS, broken])).toThrow('boom');
      expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
      expect(db.prepare("SELECT name FROM sqlite_schema WHERE name = 'half'").get()).toBeUndefined();
    } finally {
      db.close();
    }
  });

  it('refuses a store written by a newer build, and releases the lock when it does', () => {
    const path = stores.tempStore();
    stores.open(path).close();
    const db = rawWritable(path);
    db.prepare("INSERT INTO schema_version (version, description, applied_at) VALUES (7, 'future', 0)").run();
    db.close();
    expect(() => stores.open(path)).toThrow(JournalSchemaError);
    expect(() => stores.open(path)).toThrow(/schema version 7 is newer/);
    expect(fs.existsSync(`${path}.lock`)).toBe(false);
  });

  it('keeps columns strictly typed and the audit tables append-only', () => {
    const path = stores.tempStore();
    const j = stores.open(path);
    j.recordIntent(toy('mm-1'));
    j.close();
    const db = rawWritable(path);
    try {
      // STRICT: a TEXT column converts a number to text, never stores a REAL; INTEGER refuses text.
      db.prepare("UPDATE orders SET filled = 0.5 WHERE local_key = 'mm-1'").run();
      expect(db.prepare('SELECT typeof(filled) AS t FROM orders').get()).toEqual({ t: 'text' });
      expect(() => db.prepare("UPDATE orders SET last_seq = 'x'").run()).toThrow(/cannot store TEXT value/);
      expect(() => db.prepare("UPDATE transitions SET to_state = 'X'").run()).toThrow(/append-only/);
      expect(() => db.prepare('DELETE FROM transitions').run()).toThrow(/append-only/);
      expect(() => db.prepare('DELETE FROM orders').run()).toThrow(/FOREIGN KEY/);
    } finally {
      db.close();
    }
  });
});
