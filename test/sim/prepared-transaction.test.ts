import { decodePreparedTransaction, hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import { afterEach, describe, expect, it } from 'vitest';
import { FaultSpecSchema } from '../../src/sim/faults.js';
import { INTRUDER_PARTY, UNKNOWN_SCHEME } from '../../src/sim/engine/prepared-transaction.js';
import { PrepareCancelData, PrepareOrderData, type SigningEnvelope } from '../../src/venue/schemas.js';
import { type SimHarness, okData, startSimHarness } from '../support/sim-harness.js';

/**
 * Every prepare of the simulated venue carries a Canton PreparedTransaction built with the
 * Canton Network's protobuf types, and the hash it returns is that transaction's V2 hash as the
 * Canton library computes it (read here with the library alone, as an independent client would).
 * A `tamper-prepared` fault lies in exactly the way its kind names.
 */

const LIMIT = { pair: 'BTC/USDC', side: 'SELL', type: 'LIMIT', price: '61000', quantity: '0.02' } as const;

let h: SimHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function txOf(signing: SigningEnvelope | null | undefined) {
  const b64 = (signing?.prepared as { preparedTransaction?: string } | undefined)?.preparedTransaction;
  if (b64 === undefined) throw new Error('no preparedTransaction');
  return { b64, tx: decodePreparedTransaction(b64) };
}

function rootOf(tx: ReturnType<typeof decodePreparedTransaction>) {
  const root = tx.transaction!.nodes.find((n) => n.nodeId === tx.transaction!.roots[0]);
  if (root?.versionedNode.oneofKind !== 'v1') throw new Error('no v1 root');
  return root.versionedNode.v1.nodeType;
}

function fields(tx: ReturnType<typeof decodePreparedTransaction>): Record<string, unknown> {
  const root = rootOf(tx);
  if (root.oneofKind !== 'create' || root.create.argument?.sum.oneofKind !== 'record')
    throw new Error('no create');
  return Object.fromEntries(root.create.argument.sum.record.fields.map((f) => [f.label, f.value?.sum]));
}

async function prepare(harness: SimHarness): Promise<SigningEnvelope> {
  const res = await harness.api('POST', '/orders', { body: LIMIT });
  expect(res.status).toBe(202);
  return okData(res, PrepareOrderData).signing!;
}

async function prepareCancel(harness: SimHarness, contractId: string): Promise<SigningEnvelope> {
  const res = await harness.api('POST', `/orders/${contractId}/cancel`, { body: { reason: 'test' } });
  expect(res.status).toBe(202);
  return okData(res, PrepareCancelData).signing!;
}

describe('honest prepares', () => {
  it('a placement creates one Venue.Order:Order with the order, the party the only submitter; the hash is its V2 hash', async () => {
    h = await startSimHarness();
    const signing = await prepare(h);
    const { b64, tx } = txOf(signing);
    expect(await hashPreparedTransaction(b64, 'base64')).toBe(signing.preparedTransactionHash);
    expect(tx.metadata!.submitterInfo).toMatchObject({ actAs: [h.partyId], commandId: signing.commandId });
    const root = rootOf(tx);
    expect(root.oneofKind === 'create' && root.create.templateId).toMatchObject({
      moduleName: 'Venue.Order',
      entityName: 'Order',
    });
    expect(root.oneofKind === 'create' && root.create.signatories).toEqual([h.partyId]);
    expect(fields(tx)).toMatchObject({
      pair: { oneofKind: 'text', text: 'BTC/USDC' },
      side: { oneofKind: 'enum', enum: { constructor: 'Sell' } },
      price: {
        oneofKind: 'optional',
        optional: { value: { sum: { oneofKind: 'numeric', numeric: '61000' } } },
      },
      quantity: { oneofKind: 'numeric', numeric: '0.02' },
    });
    // The signature over that hash is what the host verifies: the order commits.
    expect((await h.submit(signing)).status).toBe(200);
  });

  it('a cancel exercises Cancel on the current contract, acting as the party', async () => {
    h = await startSimHarness();
    const order = await h.place({ side: 'SELL', price: '61000', quantity: '0.02' });
    const signing = await prepareCancel(h, order.contractId!);
    const { b64, tx } = txOf(signing);
    expect(await hashPreparedTransaction(b64, 'base64')).toBe(signing.preparedTransactionHash);
    const root = rootOf(tx);
    expect(root.oneofKind === 'exercise' && root.exercise).toMatchObject({
      contractId: order.contractId,
      choiceId: 'Cancel',
      actingParties: [h.partyId],
    });
    expect(tx.metadata!.inputContracts).toHaveLength(1);
  });
});

describe('tamper-prepared faults', () => {
  it('price and quantity: the transaction differs from the echo, its hash is consistent', async () => {
    h = await startSimHarness({
      config: {
        faults: [
          { kind: 'tamper-prepared', tamper: 'price', at: 1 },
          { kind: 'tamper-prepared', tamper: 'quantity', at: 2 },
        ],
      },
    });
    for (const [field, value] of [
      ['price', '60390'],
      ['quantity', '0.04'],
    ] as const) {
      const signing = await prepare(h);
      const { b64, tx } = txOf(signing);
      expect(await hashPreparedTransaction(b64, 'base64')).toBe(signing.preparedTransactionHash);
      expect(JSON.stringify(fields(tx)[field])).toContain(`"${value}"`);
    }
  });

  it('hash: an honest transaction next to the hash of another', async () => {
    h = await startSimHarness({ config: { faults: [{ kind: 'tamper-prepared', tamper: 'hash', at: 1 }] } });
    const signing = await prepare(h);
    const { b64, tx } = txOf(signing);
    expect(await hashPreparedTransaction(b64, 'base64')).not.toBe(signing.preparedTransactionHash);
    expect(Buffer.from(signing.preparedTransactionHash, 'base64')).toHaveLength(32);
    expect(fields(tx)['quantity']).toEqual({ oneofKind: 'numeric', numeric: '0.02' });
  });

  it('extra-party and scheme', async () => {
    h = await startSimHarness({
      config: {
        faults: [
          { kind: 'tamper-prepared', tamper: 'extra-party', at: 1 },
          { kind: 'tamper-prepared', tamper: 'scheme', at: 2 },
        ],
      },
    });
    const extra = txOf(await prepare(h)).tx;
    expect(extra.metadata!.submitterInfo!.actAs).toEqual([h.partyId, INTRUDER_PARTY]);
    expect(rootOf(extra).oneofKind === 'create' && rootOf(extra)).toMatchObject({
      create: { signatories: [h.partyId, INTRUDER_PARTY] },
    });
    expect((await prepare(h)).hashingSchemeVersion).toBe(UNKNOWN_SCHEME);
  });

  it('other-contract: a cancel exercising on another contract', async () => {
    h = await startSimHarness();
    const order = await h.place({ side: 'SELL', price: '61000', quantity: '0.02' });
    h.venue.addFault({ kind: 'tamper-prepared', endpoint: 'cancelPrepare', tamper: 'other-contract', at: 1 });
    const root = rootOf(txOf(await prepareCancel(h, order.contractId!)).tx);
    expect(root.oneofKind).toBe('exercise');
    expect(root.oneofKind === 'exercise' && root.exercise.contractId).not.toBe(order.contractId);
  });

  it.each([
    ['prepare', 'other-contract'],
    ['cancelPrepare', 'price'],
    ['cancelPrepare', 'quantity'],
  ])('refuses a tamper that does not apply to the endpoint (%s, %s)', (endpoint, tamper) => {
    expect(FaultSpecSchema.safeParse({ kind: 'tamper-prepared', endpoint, tamper }).success).toBe(false);
    expect(FaultSpecSchema.safeParse({ kind: 'tamper-prepared', endpoint, tamper: 'hash' }).success).toBe(
      true,
    );
  });
});
