import { setFlagsFromString } from 'node:v8';
import { runInThisContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { inProcessVenue, prepared } from '../support/in-process.js';

/**
 * What each order and command the paper venue retains for its hour of history costs. Paper mode
 * keeps about 950 ended orders and 2 400 commands once full; before these rules a command kept its
 * base64 prepared transaction (about 1.5 KiB) and every record had a hidden class of its own
 * (about 0.5 KiB), 5.5 MiB of a paper session's heap together.
 */

const ORDER = { pair: 'BTC/USDC', type: 'LIMIT', side: 'BUY', price: '1000', quantity: '0.1' } as const;

describe('records the venue retains', () => {
  it('drop the prepared transaction once the command leaves prepared, and serve it while prepared', async () => {
    const v = inProcessVenue();
    const commands = v.venue.engine.core.commands;
    const first = await v.api('POST', '/orders', { ...ORDER, clientOrderId: 'testmm-r1' });
    const env = prepared(first).signing;
    const blob = (env.prepared as { preparedTransaction?: string }).preparedTransaction;
    expect(blob?.length).toBeGreaterThan(500);
    // A replay of the clientOrderId while unsigned answers the same envelope, blob included.
    const replay = prepared(await v.api('POST', '/orders', { ...ORDER, clientOrderId: 'testmm-r1' })).signing;
    expect(replay.commandId).toBe(env.commandId);
    expect((replay.prepared as { preparedTransaction?: string }).preparedTransaction).toBe(blob);

    expect((await v.submit(env)).status).toBe(200);
    await v.fake.tickAsync(0);
    const submitted = commands.get(env.commandId)!;
    expect(submitted.state).toBe('committed');
    expect(submitted.preparedTransaction).toBeNull();
    // Its order, now committed, answers 201 with nothing to sign: the blob is never asked for again.
    expect((await v.api('POST', '/orders', { ...ORDER, clientOrderId: 'testmm-r1' })).status).toBe(201);

    // An abandoned prepare keeps its blob until the 5-minute cache deadline, then drops it.
    const abandoned = prepared(await v.api('POST', '/orders', { ...ORDER, clientOrderId: 'testmm-r2' }));
    const cmd = commands.get(abandoned.signing.commandId)!;
    await v.fake.tickAsync(5 * 60_000 - 1_000);
    expect(cmd.preparedTransaction).not.toBeNull();
    await v.fake.tickAsync(2_000);
    expect(cmd.state).toBe('expired');
    expect(cmd.preparedTransaction).toBeNull();
    // Over an hour of prepares, one a minute, only those of the last five minutes hold one: the
    // prepare of minute 55 expired at minute 60, now; those of minutes 56-59 are still cached.
    for (let i = 0; i < 60; i++) {
      await v.api('POST', '/orders', { ...ORDER, clientOrderId: `testmm-h${i}` });
      await v.fake.tickAsync(60_000);
    }
    const holding = commands.all().filter((c) => c.preparedTransaction !== null);
    expect(holding.length).toBe(4);
  });

  it('share one hidden class per kind of record (no per-object shape)', async () => {
    setFlagsFromString('--allow-natives-syntax');
    const sameShape = runInThisContext('(a, b) => %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
    const v = inProcessVenue();
    const core = v.venue.engine.core;
    const placed = [];
    for (let i = 0; i < 6; i++) {
      placed.push(
        await v.place({
          side: 'BUY',
          price: String(1000 + i),
          quantity: '0.01',
          clientOrderId: `testmm-s${i}`,
        }),
      );
    }
    for (const o of placed.slice(0, 3)) await v.cancel(o.contractId!);
    const orders = placed.map((o) => core.orders.get(o.orderId)!);
    const cmds = core.commands.all();
    expect(cmds.length).toBe(9);
    for (const o of orders) expect(sameShape(o, orders[0]!)).toBe(true);
    for (const c of cmds) expect(sameShape(c, cmds[0]!)).toBe(true);
  });
});
