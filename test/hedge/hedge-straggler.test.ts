/**
 * A hedge order still on the wire when the process dies: the request reaches the hedge venue
 * after the restarted process has begun its recovery. Reading the order back then finds nothing
 * (not yet received) and the open orders are empty, yet the order is about to execute. Calling
 * it `never-sent` at once and hedging again would double the hedge.
 *
 * The rule that prevents it: an order is called never-sent only once the venue can no longer
 * take it, that is after its receive window (the venue refuses a request older than that, as
 * Binance does past `recvWindow`) plus one call's timeout. Both cases are run: the straggler
 * arrives inside the window (it executes, and recovery settles it), and after it (the venue
 * refuses it, and recovery hedges once).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import FakeTimers from '@sinonjs/fake-timers';
import { afterEach, describe, expect, it } from 'vitest';

import { type Clock, fakeClock } from '../../src/core/clock.js';
import { Dec } from '../../src/core/decimal.js';
import type { HedgeOrderRequest, HedgeVenue } from '../../src/hedge/hedge-venue.js';
import { HedgeVenueSim } from '../../src/lab/hedge/hedge-venue-sim.js';
import { Rng } from '../../src/sim/rng.js';
import { closeJournals, hedgerOn, HEDGE_TIMEOUT_MS } from './support/hedger-rig.js';

const d = (x: string | number): Dec => new Dec(x);
const T0 = 1_800_000_000_000;
const never = new Promise<never>(() => undefined);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-hedge-straggler-'));
afterEach(closeJournals);

describe('a hedge order on the wire when the process dies', () => {
  it.each([
    { arrivesAfterSendMs: 2_100, want: ['settled'] },
    { arrivesAfterSendMs: 6_000, want: ['never-sent', 'settled'] },
  ])(
    'reaches the venue $arrivesAfterSendMs ms after it was sent: one hedge, journal $want',
    async ({ arrivesAfterSendMs, want }) => {
      const file = path.join(dir, `straggler-${arrivesAfterSendMs}.sqlite`);
      // The venue lives on the clock of whichever process runs; it refuses a request older than
      // the receive window (the executor's timeout, as the daemon sets ccxt's recvWindow).
      let fake = FakeTimers.createClock(T0);
      let clock = fakeClock(fake);
      const venueClock: Clock = {
        now: () => clock.now(),
        setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
        clearTimeout: (h) => clock.clearTimeout(h),
      };
      const inner = new HedgeVenueSim({
        clock: venueClock,
        truePrice: () => d(50_000),
        halfSpreadBps: 1,
        takerFeeBps: 5,
        latencyMs: 200,
        rng: new Rng(7).fork('hedge'),
        receiveWindowMs: HEDGE_TIMEOUT_MS,
      });
      // Process 1 sends a hedge; the request leaves, then the process dies before any answer.
      let onWire: HedgeOrderRequest | null = null;
      const dying: HedgeVenue = {
        id: inner.id,
        touch: (s, sig) => inner.touch(s, sig),
        readOrder: (id, s, sig) => inner.readOrder(id, s, sig),
        openOrders: (s, sig) => inner.openOrders(s, sig),
        position: (s, sig) => inner.position(s, sig),
        placeIoc: (req) => {
          onWire = req;
          return never;
        },
      };
      const p1 = hedgerOn(file, dying, clock, 's');
      void p1.hedger.tick(d('0.3'), d(50_000), new AbortController().signal);
      await fake.tickAsync(1_000);
      expect(onWire).not.toBeNull();
      const sentAt = p1.journal.pending()[0]!.createdAt;

      // Process 2 starts half a second later (a supervisor's restart) on the same journal.
      fake = FakeTimers.createClock(T0 + 1_500);
      clock = fakeClock(fake);
      const p2 = hedgerOn(file, inner, clock, 's');
      // The network delivers the straggler `arrivesAfterSendMs` after it was sent.
      clock.setTimeout(
        () => {
          void inner.placeIoc(onWire!, new AbortController().signal).catch(() => undefined);
        },
        sentAt + arrivesAfterSendMs - clock.now() - 200,
      );
      for (let i = 0; i < 8; i++) {
        const tick = p2.hedger.tick(d('0.3'), d(50_000), new AbortController().signal);
        await fake.tickAsync(2_000);
        await tick;
      }
      expect(inner.trades.map((t) => `${t.side} ${t.quantity.toFixed()}`)).toEqual(['SELL 0.3']);
      expect(p2.hedger.state.positionBase.toFixed()).toBe('-0.3');
      expect(p2.journal.all().map((r) => r.state)).toEqual(want);
    },
  );
});
