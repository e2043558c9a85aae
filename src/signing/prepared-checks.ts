/**
 * What a decoded prepared transaction does, checked against what was asked. Pure: a decoded
 * transaction, our party and the expectation in; the differences out, each a sentence naming the
 * node and the field. Two kinds of difference:
 *
 * - `mismatch`: the transaction is readable and does something else (another party authorises,
 *   another price, another contract, an extra node);
 * - `unreadable`: the template map cannot read it (no order of the configured template, a field
 *   missing or not a scalar). Refused under `required`; under `if-present` the echo check decides.
 */
import type { Create, Exercise, Fetch, Rollback } from '@canton-network/core-ledger-proto';
import { DECIMAL_STRING, dec, toWire, type Dec } from '../core/decimal.js';
import type { PreparedTransaction } from './canton-hash.js';
import { fieldOf, isTemplate, scalarOf, templateName, type TemplateMap } from './template-map.js';

/** What the signature is for: a placement of this order, or a cancel of this contract. */
export type PreparedExpectation =
  | {
      readonly kind: 'place';
      readonly pair: string;
      readonly side: 'BUY' | 'SELL';
      /** Null for a MARKET order (the template's price is then absent or `None`). */
      readonly price: Dec | null;
      readonly quantity: Dec;
    }
  | { readonly kind: 'cancel'; readonly contractId: string };

/** The differences found; both lists empty means the transaction does what was asked. */
export interface PreparedDiffs {
  readonly mismatch: readonly string[];
  readonly unreadable: readonly string[];
}

type NodeBody =
  | { readonly oneofKind: 'create'; readonly create: Create }
  | { readonly oneofKind: 'exercise'; readonly exercise: Exercise }
  | { readonly oneofKind: 'fetch'; readonly fetch: Fetch }
  | { readonly oneofKind: 'rollback'; readonly rollback: Rollback };

interface TxNode {
  readonly id: string;
  readonly body: NodeBody | null;
}

function nodesOf(tx: PreparedTransaction): TxNode[] {
  return (tx.transaction?.nodes ?? []).map((n) => {
    if (n.versionedNode.oneofKind !== 'v1') return { id: n.nodeId, body: null };
    const t = n.versionedNode.v1.nodeType;
    return { id: n.nodeId, body: t.oneofKind === undefined ? null : t };
  });
}

/**
 * Every party that authorises or acts in the transaction and is not `partyId`: the submitters
 * (`metadata.submitterInfo.actAs`), the signatories of every created contract, the acting
 * parties of every exercise and fetch. Observers (stakeholders that are not signatories) neither
 * authorise nor act, and are not checked.
 */
export function foreignAuthorisers(tx: PreparedTransaction, partyId: string): string[] {
  const diffs: string[] = [];
  const actAs = tx.metadata?.submitterInfo?.actAs ?? [];
  if (actAs.length === 0) diffs.push('no submitting party (metadata.submitterInfo.actAs is empty)');
  for (const p of actAs) if (p !== partyId) diffs.push(`party ${p} submits (metadata.submitterInfo.actAs)`);
  for (const n of nodesOf(tx)) {
    const b = n.body;
    if (b === null) continue;
    const [where, parties] =
      b.oneofKind === 'create'
        ? ['create.signatories', b.create.signatories]
        : b.oneofKind === 'exercise'
          ? ['exercise.actingParties', b.exercise.actingParties]
          : b.oneofKind === 'fetch'
            ? ['fetch.actingParties', b.fetch.actingParties]
            : ['', []];
    for (const p of parties) if (p !== partyId) diffs.push(`party ${p} authorises node ${n.id} (${where})`);
  }
  return diffs;
}

/** The differences between the transaction and `expected`; see the module doc. */
export function preparedDiffs(
  tx: PreparedTransaction,
  expected: PreparedExpectation,
  map: TemplateMap,
): PreparedDiffs {
  const nodes = nodesOf(tx);
  const unsupported = nodes.filter((n) => n.body === null).map((n) => `node ${n.id} has no v1 body`);
  return expected.kind === 'place'
    ? placementDiffs(nodes, expected, map, unsupported)
    : cancelDiffs(nodes, expected.contractId, map, unsupported);
}

function placementDiffs(
  nodes: TxNode[],
  expected: Extract<PreparedExpectation, { kind: 'place' }>,
  map: TemplateMap,
  mismatch: string[],
): PreparedDiffs {
  const orders: Create[] = [];
  const others: string[] = [];
  for (const n of nodes) {
    const b = n.body;
    if (b === null || b.oneofKind === 'fetch') continue;
    if (b.oneofKind === 'create' && isTemplate(b.create.templateId, map.orderTemplate)) orders.push(b.create);
    else if (b.oneofKind === 'create')
      others.push(`node ${n.id} creates a ${templateName(b.create.templateId)}`);
    else if (b.oneofKind === 'exercise')
      others.push(`node ${n.id} exercises ${b.exercise.choiceId} on ${b.exercise.contractId}`);
    else others.push(`node ${n.id} is a rollback`);
  }
  if (orders.length === 0) {
    // Not the template the map names: the map, not the venue, may be wrong.
    return { mismatch, unreadable: [`no create of the order template ${map.orderTemplate}`, ...others] };
  }
  mismatch.push(...others);
  if (orders.length > 1) mismatch.push(`creates ${orders.length} orders, not one`);
  const unreadable: string[] = [];
  const arg = orders[0]!.argument;
  const read = (field: keyof TemplateMap['fields']): string | null | undefined => {
    const v = scalarOf(fieldOf(arg, map.fields[field]));
    if (v === undefined)
      unreadable.push(`order field ${map.fields[field]} (${field}) is missing or not a scalar`);
    return v;
  };
  const pair = read('pair');
  if (typeof pair === 'string' && pair !== expected.pair) mismatch.push(`pair ${pair} ≠ ${expected.pair}`);
  const side = read('side');
  if (typeof side === 'string' && side.toUpperCase() !== expected.side)
    mismatch.push(`side ${side} ≠ ${expected.side}`);
  decimalField(read('price'), expected.price, 'price', mismatch);
  decimalField(read('quantity'), expected.quantity, 'quantity', mismatch);
  return { mismatch, unreadable };
}

function decimalField(value: string | null | undefined, ours: Dec | null, name: string, out: string[]): void {
  if (value === undefined) return;
  if (value === null || ours === null) {
    if (value !== null || ours !== null)
      out.push(`${name} ${String(value)} ≠ ${ours === null ? 'none' : toWire(ours)}`);
    return;
  }
  if (!DECIMAL_STRING.test(value)) out.push(`${name} ${JSON.stringify(value)} is not a decimal`);
  else if (!dec(value).eq(ours)) out.push(`${name} ${value} ≠ ${toWire(ours)}`);
}

function cancelDiffs(
  nodes: TxNode[],
  contractId: string,
  map: TemplateMap,
  mismatch: string[],
): PreparedDiffs {
  let cancels = 0;
  for (const n of nodes) {
    const b = n.body;
    if (b === null) continue;
    if (b.oneofKind === 'create') {
      mismatch.push(`node ${n.id} creates a ${templateName(b.create.templateId)}`);
    } else if (b.oneofKind === 'exercise' || b.oneofKind === 'fetch') {
      const target = b.oneofKind === 'exercise' ? b.exercise.contractId : b.fetch.contractId;
      const what = b.oneofKind === 'exercise' ? `exercises ${b.exercise.choiceId}` : 'fetches';
      if (target !== contractId) mismatch.push(`node ${n.id} ${what} on ${target}, not ${contractId}`);
      if (b.oneofKind === 'exercise' && b.exercise.choiceId !== map.cancelChoice) {
        mismatch.push(`node ${n.id} exercises ${b.exercise.choiceId}, not ${map.cancelChoice}`);
      }
      if (b.oneofKind === 'exercise') cancels += 1;
    } else {
      mismatch.push(`node ${n.id} is a rollback`);
    }
  }
  if (cancels === 0) mismatch.push(`no exercise of ${map.cancelChoice} on ${contractId}`);
  return { mismatch, unreadable: [] };
}
