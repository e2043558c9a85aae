import { hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { decodePrepared, hashPrepared, hashingSchemeOf } from '../../src/signing/canton-hash.js';
import { withInTurnDigest } from '../../src/signing/in-turn-digest.js';
import type { PreparedExpectation } from '../../src/signing/prepared-checks.js';
import {
  PreparedVerifier,
  type PreparedEnvelope,
  type VerifyPreparedPolicy,
} from '../../src/signing/prepared-verifier.js';
import { DEFAULT_TEMPLATE_MAP, type TemplateMap } from '../../src/signing/template-map.js';
import type { PreparedTransaction } from '../../src/signing/canton-hash.js';
import {
  CONTRACT,
  OTHER,
  PARTY,
  b64,
  cancelTx,
  enumOf,
  exerciseNode,
  fetchNode,
  numeric,
  orderArgument,
  placementTx,
  record,
  some,
  text,
} from './support/prepared-fixtures.js';

const PLACE: PreparedExpectation = {
  kind: 'place',
  pair: 'BTC/USDC',
  side: 'BUY',
  price: dec('60000'),
  quantity: dec('0.01'),
};
const CANCEL: PreparedExpectation = { kind: 'cancel', contractId: CONTRACT };

/** What the library itself computes: its own decode of the base64, its own (Web Crypto) digest. */
async function libraryHash(tx: PreparedTransaction): Promise<string> {
  return hashPreparedTransaction(b64(tx), 'base64');
}

/** A signing envelope as the venue sends it: the transaction and its library-computed hash. */
async function envelope(
  tx: PreparedTransaction,
  over: Partial<{ hash: string; scheme: string; at: string }> = {},
): Promise<PreparedEnvelope> {
  const hash = over.hash ?? (await libraryHash(tx));
  const env: Record<string, unknown> = {
    preparedTransactionHash: hash,
    hashingSchemeVersion: over.scheme ?? 'HASHING_SCHEME_VERSION_V2',
  };
  if (over.at === undefined) env['prepared'] = { preparedTransaction: b64(tx) };
  else env[over.at] = b64(tx);
  return env as PreparedEnvelope;
}

function verifier(policy: VerifyPreparedPolicy = 'if-present', template?: TemplateMap): PreparedVerifier {
  return new PreparedVerifier({ policy, partyId: PARTY, ...(template ? { template } : {}) });
}

describe('hash recomputation with the Canton library', () => {
  const cases: [string, PreparedTransaction][] = [
    ['a placement (one create)', placementTx()],
    ['a MARKET placement (price None)', placementTx({ argument: orderArgument({ price: some(undefined) }) })],
    ['a cancel (an exercise, the order as an input contract)', cancelTx()],
    ['a placement with a fetch', placementTx({ extra: [fetchNode('1')] })],
  ];

  it.each(cases)('%s: the V2 hash equals the library’s, byte for byte', async (_name, tx) => {
    const ours = await hashPrepared(decodePrepared(b64(tx)), 'V2');
    expect(ours).toHaveLength(32);
    expect(Buffer.from(ours).toString('base64')).toBe(await libraryHash(tx));
  });

  it('any change to the transaction changes the hash', async () => {
    const a = await libraryHash(placementTx());
    const b = await libraryHash(
      placementTx({ argument: orderArgument({ quantity: numeric('0.010000001') }) }),
    );
    const c = await libraryHash(placementTx({ commandId: 'cmd-2' }));
    expect(new Set([a, b, c]).size).toBe(3);
  });

  it('settles within the turn: no timer, no thread-pool hop, the digest override removed after', async () => {
    const subtle = globalThis.crypto.subtle;
    let settled = false;
    const p = hashPrepared(cancelTx(), 'V2').then(() => (settled = true));
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(settled).toBe(true);
    await p;
    expect(Object.hasOwn(subtle, 'digest')).toBe(false);
  });

  it('nests: overlapping in-turn computations keep the override until the last ends', async () => {
    const subtle = globalThis.crypto.subtle;
    await withInTurnDigest(async () => {
      await Promise.all([hashPrepared(placementTx(), 'V2'), hashPrepared(cancelTx(), 'V2')]);
      expect(Object.hasOwn(subtle, 'digest')).toBe(true);
    });
    expect(Object.hasOwn(subtle, 'digest')).toBe(false);
  });

  it.each([
    ['HASHING_SCHEME_VERSION_V2', 'V2'],
    ['V2', 'V2'],
    ['v2', 'V2'],
    ['2', 'V2'],
    ['HASHING_SCHEME_VERSION_V1', null],
    ['HASHING_SCHEME_VERSION_V3', null],
    ['', null],
  ])('hashingSchemeVersion %j names %s', (wire, scheme) => {
    expect(hashingSchemeOf(wire)).toBe(scheme);
  });

  it('refuses text that is not base64 or not a PreparedTransaction', () => {
    expect(() => decodePrepared('not base64!')).toThrow(TypeError);
    expect(() => decodePrepared(Buffer.from([0xff, 0xff, 0xff]).toString('base64'))).toThrow(TypeError);
  });
});

describe('verification: what differs is refused', () => {
  it('a placement that is what was asked verifies', async () => {
    expect(await verifier().verify(await envelope(placementTx()), PLACE)).toEqual({ kind: 'verified' });
    expect(await verifier('required').verify(await envelope(cancelTx()), CANCEL)).toEqual({
      kind: 'verified',
    });
  });

  it('a hash that differs by a single byte is refused, naming both hashes', async () => {
    const tx = placementTx();
    const good = Buffer.from(await libraryHash(tx), 'base64');
    for (const i of [0, 31]) {
      const bad = Buffer.from(good);
      bad[i] = bad[i]! ^ 0x01;
      const v = await verifier().verify(await envelope(tx, { hash: bad.toString('base64') }), PLACE);
      expect(v.kind).toBe('refused');
      expect(v.kind === 'refused' && v.diffs[0]).toContain(
        `${bad.toString('base64')} ≠ ${good.toString('base64')}`,
      );
    }
  });

  it.each<[string, PreparedTransaction, PreparedExpectation, RegExp]>([
    ['another submitter', placementTx({ actAs: [PARTY, OTHER] }), PLACE, /party other::.* submits/],
    [
      'another signatory',
      placementTx({ signatories: [PARTY, OTHER] }),
      PLACE,
      /authorises node 0 \(create.signatories\)/,
    ],
    [
      'another acting party',
      cancelTx({ actingParties: [OTHER] }),
      CANCEL,
      /authorises node 0 \(exercise.actingParties\)/,
    ],
    [
      'a fetch acting as another',
      placementTx({ extra: [fetchNode('1', OTHER)] }),
      PLACE,
      /node 1 \(fetch.actingParties\)/,
    ],
    [
      'a price changed',
      placementTx({ argument: orderArgument({ price: some(numeric('60600')) }) }),
      PLACE,
      /price 60600 ≠ 60000/,
    ],
    [
      'a quantity changed',
      placementTx({ argument: orderArgument({ quantity: numeric('0.02') }) }),
      PLACE,
      /quantity 0.02 ≠ 0.01/,
    ],
    [
      'the side',
      placementTx({ argument: orderArgument({ side: enumOf('Sell') }) }),
      PLACE,
      /side Sell ≠ BUY/,
    ],
    [
      'the pair',
      placementTx({ argument: orderArgument({ pair: text('ETH/USDC') }) }),
      PLACE,
      /pair ETH\/USDC ≠ BTC\/USDC/,
    ],
    [
      'a price that is no decimal',
      placementTx({ argument: orderArgument({ price: some(text('1e3')) }) }),
      PLACE,
      /is not a decimal/,
    ],
    [
      'a transfer next to the order',
      placementTx({ extra: [exerciseNode('1', 'Transfer', `00${'99'.repeat(33)}`)] }),
      PLACE,
      /node 1 exercises Transfer/,
    ],
    [
      'two orders',
      placementTx({ extra: [placementTx().transaction!.nodes[0]!].map((n) => ({ ...n, nodeId: '1' })) }),
      PLACE,
      /creates 2 orders/,
    ],
    [
      'a cancel on another contract',
      cancelTx({ contractId: `00${'77'.repeat(33)}` }),
      CANCEL,
      /exercises Cancel on 0077.*, not 0012/,
    ],
    ['another choice on our contract', cancelTx({ choice: 'Amend' }), CANCEL, /exercises Amend, not Cancel/],
    [
      'a cancel that also transfers',
      cancelTx({ extra: [exerciseNode('1', 'Transfer', `00${'99'.repeat(33)}`)] }),
      CANCEL,
      /node 1 exercises Transfer on 0099/,
    ],
  ])('%s is refused under if-present and required', async (_name, tx, expected, diff) => {
    for (const policy of ['if-present', 'required'] as const) {
      const v = await verifier(policy).verify(await envelope(tx), expected);
      expect(v.kind).toBe('refused');
      expect(v.kind === 'refused' ? v.diffs.join('; ') : '').toMatch(diff);
    }
  });

  it('compares decimals as decimals: 60000.000 and 0.0100 are the order asked', async () => {
    const tx = placementTx({
      argument: orderArgument({ price: some(numeric('60000.000')), quantity: numeric('0.0100') }),
    });
    expect(await verifier('required').verify(await envelope(tx), PLACE)).toEqual({ kind: 'verified' });
  });

  it('a MARKET order carries no price: None matches null, a price does not', async () => {
    const market: PreparedExpectation = { ...PLACE, price: null };
    const none = placementTx({ argument: orderArgument({ price: some(undefined) }) });
    expect(await verifier('required').verify(await envelope(none), market)).toEqual({ kind: 'verified' });
    const priced = await verifier('required').verify(await envelope(placementTx()), market);
    expect(priced).toMatchObject({ kind: 'refused', diffs: ['price 60000 ≠ none'] });
  });

  it('garbage in the transaction field is refused under both policies', async () => {
    const env = { ...(await envelope(placementTx())), prepared: { preparedTransaction: '////' } };
    expect((await verifier('if-present').verify(env, PLACE)).kind).toBe('refused');
  });
});

describe('the template field map', () => {
  const nested: TemplateMap = {
    orderTemplate: 'Exchange.Limit:LimitOrder',
    fields: { pair: 'market', side: 'terms.direction', price: 'terms.limit', quantity: 'terms.amount' },
    cancelChoice: 'Withdraw',
  };
  const nestedArg = record({
    market: text('BTC/USDC'),
    terms: record({ direction: text('BUY'), limit: numeric('60000'), amount: numeric('0.01') }),
  });

  it('reads a template of other names, with fields nested in a record', async () => {
    const tx = placementTx({ module: 'Exchange.Limit', entity: 'LimitOrder', argument: nestedArg });
    expect(await verifier('required', nested).verify(await envelope(tx), PLACE)).toEqual({
      kind: 'verified',
    });
    const cancel = cancelTx({ module: 'Exchange.Limit', entity: 'LimitOrder', choice: 'Withdraw' });
    expect(await verifier('required', nested).verify(await envelope(cancel), CANCEL)).toEqual({
      kind: 'verified',
    });
  });

  it('pins the package when the template names one', async () => {
    const pinned = { ...DEFAULT_TEMPLATE_MAP, orderTemplate: `${'fe'.repeat(32)}:Venue.Order:Order` };
    expect(await verifier('required', pinned).verify(await envelope(placementTx()), PLACE)).toEqual({
      kind: 'verified',
    });
    const other = { ...DEFAULT_TEMPLATE_MAP, orderTemplate: `${'00'.repeat(32)}:Venue.Order:Order` };
    expect((await verifier('required', other).verify(await envelope(placementTx()), PLACE)).kind).toBe(
      'refused',
    );
  });

  it.each<[string, TemplateMap, PreparedTransaction]>([
    ['another template', DEFAULT_TEMPLATE_MAP, placementTx({ module: 'Other.Order' })],
    [
      'a field the map names but the order lacks',
      { ...DEFAULT_TEMPLATE_MAP, fields: { ...DEFAULT_TEMPLATE_MAP.fields, price: 'limitPrice' } },
      placementTx(),
    ],
    [
      'a field that is a record, not a scalar',
      DEFAULT_TEMPLATE_MAP,
      placementTx({ argument: orderArgument({ quantity: record({}) }) }),
    ],
  ])('%s: unreadable, refused under required, left to the echo under if-present', async (_n, map, tx) => {
    const env = await envelope(tx);
    expect((await verifier('required', map).verify(env, PLACE)).kind).toBe('refused');
    expect(await verifier('if-present', map).verify(env, PLACE)).toMatchObject({
      kind: 'unverified',
      reason: 'unreadable',
      warn: true,
    });
  });
});

describe('the policies, with the transaction present and absent', () => {
  const absent: PreparedEnvelope = {
    preparedTransactionHash: Buffer.alloc(32, 1).toString('base64'),
    hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
    prepared: {},
  };

  it.each<[VerifyPreparedPolicy, 'present' | 'absent' | 'tampered' | 'unknown scheme', string]>([
    ['off', 'present', 'unverified'],
    ['off', 'absent', 'unverified'],
    ['off', 'tampered', 'unverified'],
    ['off', 'unknown scheme', 'unverified'],
    ['if-present', 'present', 'verified'],
    ['if-present', 'absent', 'unverified'],
    ['if-present', 'tampered', 'refused'],
    ['if-present', 'unknown scheme', 'unverified'],
    ['required', 'present', 'verified'],
    ['required', 'absent', 'refused'],
    ['required', 'tampered', 'refused'],
    ['required', 'unknown scheme', 'refused'],
  ])('%s with the transaction %s: %s', async (policy, tx, kind) => {
    const honest = placementTx();
    const env =
      tx === 'absent'
        ? absent
        : tx === 'tampered'
          ? await envelope(honest, {
              hash: await libraryHash(
                placementTx({ argument: orderArgument({ price: some(numeric('1')) }) }),
              ),
            })
          : tx === 'unknown scheme'
            ? await envelope(honest, { scheme: 'HASHING_SCHEME_VERSION_V9' })
            : await envelope(honest);
    expect((await verifier(policy).verify(env, PLACE)).kind).toBe(kind);
  });

  it('if-present warns once per reason, then stays quiet', async () => {
    const v = verifier('if-present');
    const unknown = await envelope(placementTx(), { scheme: 'V7' });
    expect(await v.verify(absent, PLACE)).toMatchObject({ reason: 'absent', warn: true });
    expect(await v.verify(absent, PLACE)).toMatchObject({ reason: 'absent', warn: false });
    expect(await v.verify(unknown, PLACE)).toMatchObject({ reason: 'unknown-scheme', warn: true });
    expect(await v.verify(unknown, PLACE)).toMatchObject({ reason: 'unknown-scheme', warn: false });
  });

  it('an unknown scheme still gets the party and content checks', async () => {
    const tx = placementTx({ argument: orderArgument({ quantity: numeric('5') }) });
    const v = await verifier('if-present').verify(await envelope(tx, { scheme: 'V7' }), PLACE);
    expect(v).toMatchObject({ kind: 'refused', diffs: ['quantity 5 ≠ 0.01'] });
  });

  it.each(['preparedTransaction', 'prepared_transaction'])('finds the transaction at %s too', async (at) => {
    expect(await verifier('required').verify(await envelope(placementTx(), { at }), PLACE)).toEqual({
      kind: 'verified',
    });
  });

  it('looks only where configured', async () => {
    const v = new PreparedVerifier({ policy: 'required', partyId: PARTY, transactionPaths: ['prepared.tx'] });
    const env = await envelope(placementTx());
    expect(await v.verify(env, PLACE)).toMatchObject({
      kind: 'refused',
      diffs: [expect.stringContaining('prepared.tx')],
    });
    const moved = { ...env, prepared: { tx: b64(placementTx()) } };
    expect(await v.verify(moved, PLACE)).toEqual({ kind: 'verified' });
    expect(() => new PreparedVerifier({ policy: 'off', partyId: PARTY, transactionPaths: [] })).toThrow(
      RangeError,
    );
  });
});
