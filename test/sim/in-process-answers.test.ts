import { describe, expect, it } from 'vitest';
import { IN_PROCESS_BASE_URL, IN_PROCESS_SUBMIT_URL } from '../../src/sim/in-process-transport.js';
import { VenueClient } from '../../src/venue/client.js';
import { decodeData } from '../../src/venue/decode.js';
import { Account, OrderBook } from '../../src/venue/schemas.js';
import type { Transport, TransportResponse } from '../../src/venue/transport.js';
import { type InProcessVenue, inProcessVenue } from './support/in-process.js';

/**
 * The in-process transport hands a JSON answer over with its parsed value beside the text (the
 * client validates the value with its schemas and skips parsing), or, with `answers: 'text'`, as
 * text only: then the client runs exactly the wire decoding it runs on an HTTP body. Both must
 * give the daemon the same data, and the text mode must really parse.
 */

/** A client over the venue's in-process transport, keeping every response it was given. */
function clientOf(
  v: InProcessVenue,
  answers: 'values' | 'text' | 'typed',
): { client: VenueClient; seen: TransportResponse[] } {
  const inner = v.venue.createTransport({ answers });
  const seen: TransportResponse[] = [];
  const transport: Transport = {
    request: async (req) => {
      const res = await inner.request(req);
      seen.push(res);
      return res;
    },
    close: () => inner.close(),
  };
  const client = new VenueClient({
    baseUrl: IN_PROCESS_BASE_URL,
    submitUrl: IN_PROCESS_SUBMIT_URL,
    apiKey: v.apiKey,
    transport,
    clock: v.venue.clock,
    random: () => 0.5,
    retry: { baseDelayMs: 10, maxDelayMs: 50 },
  });
  return { client, seen };
}

/** Every read endpoint the daemon polls, through `client`. */
async function readAll(client: VenueClient, orderId: string): Promise<unknown[]> {
  return [
    await client.getPairs(),
    await client.getOrderBook('BTC/USDC'),
    await client.getTrades({ pair: 'BTC/USDC' }),
    await client.getAccount(),
    await client.listOrders(),
    await client.getOrder(orderId),
    await client.getBalances(),
  ];
}

describe('in-process answers', () => {
  it('by default carry the parsed value, equal to the text parsed', async () => {
    const v = inProcessVenue();
    const { client, seen } = clientOf(v, 'values');
    await client.getPairs();
    const res = seen[0]!;
    const parsed = JSON.parse(res.body) as { ok: boolean; data: { pairs: unknown[] } };
    expect(parsed.data.pairs.length).toBeGreaterThan(0);
    expect(res.json).toStrictEqual(parsed);
  });

  it('as text only decode to the same data as the values, for every read the daemon makes', async () => {
    const v = inProcessVenue();
    v.background('BTC/USDC', [['59000', '1']], [['61000', '1']]);
    const order = await v.place({ side: 'BUY', price: '60000', quantity: '0.01' });
    v.take('BTC/USDC', 'SELL', '0.004', '60000');
    const values = clientOf(v, 'values');
    const text = clientOf(v, 'text');
    const fromValues = await readAll(values.client, order.orderId);
    const fromText = await readAll(text.client, order.orderId);
    expect(fromText).toEqual(fromValues);
    // Something to compare: the order rests part-filled in the book, and its trade is listed.
    expect(fromValues[5]).toMatchObject({ orderId: order.orderId, filled: '0.004' });
    expect((fromValues[2] as { trades: unknown[] }).trades).toHaveLength(1);
    // The text mode really parsed: no response carried a value.
    expect(text.seen.map((r) => r.json)).toEqual(fromText.map(() => undefined));
    expect(values.seen.every((r) => r.json !== undefined)).toBe(true);
  });

  it('typed answers decode to the same data as text, and only book, trades and orders skip the schemas', async () => {
    const v = inProcessVenue();
    v.background('BTC/USDC', [['59000', '1']], [['61000', '1']]);
    const order = await v.place({ side: 'BUY', price: '60000', quantity: '0.01' });
    v.take('BTC/USDC', 'SELL', '0.004', '60000');
    const typed = clientOf(v, 'typed');
    const text = clientOf(v, 'text');
    const fromTyped = await readAll(typed.client, order.orderId);
    expect(fromTyped).toEqual(await readAll(text.client, order.orderId));
    expect(fromTyped[5]).toMatchObject({ orderId: order.orderId, filled: '0.004' });
    expect(typed.seen.every((r) => r.typed === true)).toBe(true);
    // A replaced body drops the mark with the value.
    const res = typed.seen[0]!;
    res.body = '{"ok":true,"data":{"pairs":[]}}';
    expect([res.typed, res.json]).toEqual([false, undefined]);
  });

  it('a typed value is taken as it is only for a pass-through schema', () => {
    const bad = { ok: true, data: { pair: 'BTC/USDC', bids: [['not a price', '1']], asks: [] } };
    const answer = (typed: boolean): TransportResponse =>
      Object.assign(
        { status: 200, headers: {}, body: JSON.stringify(bad), json: bad },
        typed ? { typed } : {},
      );
    expect(decodeData('GET /orderbook', answer(true), OrderBook)).toBe(bad.data);
    expect(() => decodeData('GET /orderbook', answer(false), OrderBook)).toThrow(/schema mismatch/);
    // Not a pass-through schema: validated though typed.
    expect(() => decodeData('GET /account', answer(true), Account)).toThrow(/schema mismatch/);
  });

  it('a copy with another body, or a write to the body, carries no stale value', async () => {
    const v = inProcessVenue();
    const { client, seen } = clientOf(v, 'values');
    await client.getPairs();
    const res = seen[0]!;
    const copy = { ...res, body: '{"ok":true,"data":{"pairs":[]}}' };
    expect(copy.json).toBeUndefined();
    expect('json' in copy).toBe(false);
    res.body = 'not json';
    expect(res.json).toBeUndefined();
  });
});
