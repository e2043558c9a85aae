import { performance } from 'node:perf_hooks';
import { expect, it } from 'vitest';
import { Dec } from '../../src/core/decimal.js';
import { inProcessVenue } from './support/in-process.js';

const HOUR_MS = 3_600_000;
const REQUOTE_MS = 5 * 60_000;

/**
 * A simulated hour in-process under fake timers, with the default market (GBM reference,
 * background makers, Poisson takers on both pairs) and one account re-quoting both sides of
 * BTC/USDC every five minutes at realistic latencies. The budget: under 10 s of wall time.
 */
it('drives a simulated hour with the market and takers running, in well under 10 s of wall time', async () => {
  const v = inProcessVenue({ config: { market: {} }, latency: 'realistic' });
  const model = v.venue.startMarket();
  const simStart = v.fake.now;
  const started = performance.now();

  /** Runs `p` to completion while advancing simulated time (every venue call takes simulated time). */
  const drive = async <T>(p: Promise<T>): Promise<T> => {
    let outcome: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
    p.then(
      (value) => (outcome = { ok: true, value }),
      (error: unknown) => (outcome = { ok: false, error }),
    );
    while (!outcome) await v.fake.tickAsync(250);
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  };

  let live: string[] = [];
  for (let t = 0; t < HOUR_MS; t += REQUOTE_MS) {
    for (const contractId of live) {
      await drive(v.cancel(contractId)).catch(() => undefined); // filled (409) or partly filled, rotating the contractId (404), meanwhile
    }
    const ref = new Dec(model.snapshot().pairs['BTC/USDC']!.referencePrice);
    const placed: string[] = [];
    for (const [side, px] of [
      ['BUY', ref.mul(0.9992).toDecimalPlaces(2, Dec.ROUND_DOWN)],
      ['SELL', ref.mul(1.0008).toDecimalPlaces(2, Dec.ROUND_UP)],
    ] as const) {
      const { orderId } = await drive(v.place({ side, price: px.toFixed(), quantity: '0.05' }));
      // The submit has answered; the commit lands about 12 s later at realistic latency.
      await v.fake.tickAsync(15_000);
      const order = await drive(v.order(orderId));
      if (order.status === 'OPEN' && order.contractId) placed.push(order.contractId);
    }
    live = placed;
    const next = simStart + t + REQUOTE_MS;
    if (next > v.fake.now) await v.fake.tickAsync(next - v.fake.now);
  }
  const wallMs = performance.now() - started;
  model.close();

  const snap = model.snapshot();
  const takers = Object.values(snap.pairs).reduce((n, p) => n + p.takers.arrived, 0);
  const ours = v.venue.truth.orders().filter((o) => o.partyId === v.partyId);
  const filledOrders = ours.filter((o) => o.fills.length > 0).length;
  console.log(
    `simulated hour: ${wallMs.toFixed(0)} ms wall, ${takers} takers, ${ours.length} own orders, ` +
      `${filledOrders} with fills, ${v.venue.truth.trades().length} trades`,
  );
  expect(v.fake.now - simStart).toBeGreaterThanOrEqual(HOUR_MS);
  expect(snap.pairs['BTC/USDC']!.referenceSteps).toBeGreaterThanOrEqual(HOUR_MS / 1000 - 1);
  expect(takers).toBeGreaterThan(0);
  expect(v.venue.truth.trades().length).toBeGreaterThan(0);
  expect(ours.length).toBeGreaterThanOrEqual(24);
  expect(wallMs).toBeLessThan(10_000);
  await v.venue.close();
});
