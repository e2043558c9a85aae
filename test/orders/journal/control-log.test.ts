import { describe, expect, it } from 'vitest';
import { Database } from '../../../src/orders/journal/sqlite-driver.js';
import type { ControlChangeInput } from '../../../src/orders/journal/index.js';
import { useTempStores } from './support/temp-store.js';

const stores = useTempStores();

const pause: ControlChangeInput = {
  action: 'pause',
  pair: 'BTC/USDC',
  side: 'BUY',
  reason: 'operator',
  by: 'token:ab12cd34 from 10.0.0.7',
  detail: '',
  at: 1_000,
};

describe('journal control log', () => {
  it('keeps every pause and resume durably, in order, across a crash and a reopen', () => {
    const path = stores.tempStore();
    const j = stores.open(path);
    expect(j.recordControlChange(pause)).toBe(1);
    expect(j.recordControlChange({ ...pause, action: 'resume', side: null, at: 2_000 })).toBe(2);
    j.recordControlChange({
      ...pause,
      pair: null,
      side: null,
      reason: 'kill-switch',
      by: 'kill-switch',
      detail: 'drawdown',
      at: 3_000,
    });
    // A durable write needs no flush: a crash right after keeps it.
    j.closeAsCrash();
    const again = stores.open(path);
    expect(again.controlChanges().map((c) => [c.seq, c.action, c.pair, c.side, c.reason, c.at])).toEqual([
      [1, 'pause', 'BTC/USDC', 'BUY', 'operator', 1_000],
      [2, 'resume', 'BTC/USDC', null, 'operator', 2_000],
      [3, 'pause', null, null, 'kill-switch', 3_000],
    ]);
    expect(again.controlChanges()[0]?.by).toBe('token:ab12cd34 from 10.0.0.7');
  });

  it('is append-only, enforced by the store', () => {
    const path = stores.tempStore();
    const j = stores.open(path);
    j.recordControlChange(pause);
    j.close();
    const db = new Database(path);
    try {
      expect(() => db.prepare("UPDATE control_changes SET action = 'resume'").run()).toThrow(/append-only/);
      expect(() => db.prepare('DELETE FROM control_changes').run()).toThrow(/append-only/);
      expect(() =>
        db
          .prepare(
            "INSERT INTO control_changes (action, reason, by, detail, at) VALUES ('stop', 'x', 'y', '', 1)",
          )
          .run(),
      ).toThrow(/CHECK/);
    } finally {
      db.close();
    }
  });
});
