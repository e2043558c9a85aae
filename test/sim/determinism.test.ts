import FakeTimers from '@sinonjs/fake-timers';
import { describe, expect, it } from 'vitest';
import { fakeClock } from '../../src/core/clock.js';
import { SimVenue } from '../../src/sim/sim-venue.js';
import { makeTestKey, testSimConfig } from '../support/sim-harness.js';
import { T0 } from './support/in-process.js';

const KEY = makeTestKey();

/** A ten-minute accelerated run: the market model trading against one account's quotes. */
async function run(seed: number) {
  const fake = FakeTimers.createClock(T0, 1_000_000);
  const venue = new SimVenue({
    config: testSimConfig({
      seed,
      market: {
        pairs: {
          'BTC/USDC': {
            initialPrice: '60000',
            background: { sizeBase: '0.25' },
            takers: { meanSizeBase: '0.05', A: 0.5 },
          },
        },
      },
    }),
    clock: fakeClock(fake),
    latency: 'fast',
  });
  const { apiKey, partyId } = venue.registerAccount({
    name: 'Det',
    slug: 'det',
    publicKey: KEY.publicKeyRaw,
    balances: { USDC: '100000', BTC: '2' },
  });
  venue.startMarket();
  const call = async (host: 'api' | 'submit', path: string, body: unknown) => {
    const p = venue.router.handle({
      host,
      method: 'POST',
      path,
      headers: { authorization: `Bearer ${apiKey}` },
      body: JSON.stringify(body),
    });
    let out: { status: number; body: string } | undefined;
    void p.then((r) => (out = r));
    while (!out) await fake.tickAsync(100);
    return JSON.parse(out.body || '{}') as { data: { signing: Record<string, string> } };
  };
  for (const [side, price] of [
    ['BUY', '59990'],
    ['SELL', '60010'],
  ] as const) {
    const prep = await call('api', '/v1/orders', {
      pair: 'BTC/USDC',
      side,
      type: 'LIMIT',
      price,
      quantity: '0.2',
    });
    const s = prep.data.signing;
    await call('submit', '/submit', {
      partyId,
      commandId: s['commandId'],
      signature: KEY.sign(s['preparedTransactionHash']!),
      publicKey: KEY.publicKeyRaw,
      submitToken: s['submitToken'],
      prepared: {
        preparedTransactionHash: s['preparedTransactionHash'],
        hashingSchemeVersion: s['hashingSchemeVersion'],
      },
    });
    await fake.tickAsync(2_000);
  }
  await fake.tickAsync(10 * 60_000);
  await venue.close();
  return {
    events: venue.truth.events(),
    trades: venue.truth.trades(),
    orders: venue.truth.orders(),
    balances: venue.truth.balances(),
  };
}

describe('determinism', () => {
  it('same seed, same config, same calls ⇒ the same run, event log included', async () => {
    const a = await run(42);
    const b = await run(42);
    expect(a.trades.length).toBeGreaterThan(0);
    expect(a.orders.filter((o) => o.fills.length > 0).length).toBeGreaterThan(0);
    expect(b.events).toEqual(a.events);
    expect(b.trades).toEqual(a.trades);
    expect(b.orders).toEqual(a.orders);
    expect(b.balances).toEqual(a.balances);
  });

  it('a different seed gives a different run', async () => {
    const a = await run(1);
    const b = await run(2);
    expect(b.orders[0]!.orderId).not.toBe(a.orders[0]!.orderId);
    expect(b.trades).not.toEqual(a.trades);
  });
});
