import { DECIMAL_STRING, dec, toWire } from '../core/decimal.js';
import type { Dec } from '../core/decimal.js';
import type { PrepareCancelResult, PrepareOrderResult } from '../venue/call-types.js';
import type { Order } from '../venue/schemas.js';
import type { PlacementIntent } from './placement-intent.js';

/**
 * Invariant 2: nothing is signed unless the prepared order equals the intent. These checks are
 * pure and exact: decimals compare with `Dec.eq` (so `100.50` equals `100.5`), every other field
 * compares verbatim, and anything unparseable is a mismatch.
 */

/** The verdict of an echo check: `ok` with no diffs, or the human-readable differences. */
export interface EchoVerdict {
  readonly ok: boolean;
  readonly diffs: readonly string[];
}

function verdict(diffs: string[]): EchoVerdict {
  return { ok: diffs.length === 0, diffs };
}

/** Compares a wire decimal (or null) with ours; returns a diff or null. */
function decimalDiff(field: string, wire: string | null | undefined, ours: Dec | null): string | null {
  if (wire == null || ours === null) {
    return (wire ?? null) === null && ours === null
      ? null
      : `${field} ${String(wire)} ≠ ${ours === null ? 'null' : toWire(ours)}`;
  }
  if (!DECIMAL_STRING.test(wire)) return `${field} ${JSON.stringify(wire)} is not a decimal`;
  return dec(wire).eq(ours) ? null : `${field} ${wire} ≠ ${toWire(ours)}`;
}

/**
 * Checks a 202 prepare response against the intent: pair, side, type, price and quantity equal
 * exactly; the clientOrderId (when echoed) is ours; nothing is committed yet (status and
 * contractId null, filled zero, per the contract); and there is a signing envelope that asks
 * for a signature.
 */
export function checkPlacementEcho(
  intent: PlacementIntent,
  clientOrderId: string,
  result: PrepareOrderResult,
): EchoVerdict {
  const diffs = orderDiffs(intent, clientOrderId, result.order);
  if (result.status === 202) {
    const o = result.order;
    if (o.status !== null) diffs.push(`202 with status ${o.status}`);
    if (o.contractId !== null) diffs.push(`202 with contractId ${o.contractId}`);
    const filled = decimalDiff('filled', o.filled, dec('0'));
    if (filled !== null) diffs.push(filled);
    if (!result.signing.requiresSignature) diffs.push('signing.requiresSignature is false');
    if (result.signing.preparedTransactionHash.length === 0) diffs.push('empty preparedTransactionHash');
  }
  return verdict(diffs);
}

/** The field-by-field differences between a wire order and the intent. */
export function orderDiffs(intent: PlacementIntent, clientOrderId: string, order: Order): string[] {
  const diffs: string[] = [];
  const type = intent.type ?? 'LIMIT';
  if (order.pair !== intent.pair) diffs.push(`pair ${order.pair} ≠ ${intent.pair}`);
  if (order.side !== intent.side) diffs.push(`side ${order.side} ≠ ${intent.side}`);
  if (order.type !== type) diffs.push(`type ${order.type} ≠ ${type}`);
  const price = decimalDiff('price', order.price, intent.price);
  if (price !== null) diffs.push(price);
  const quantity = decimalDiff('quantity', order.quantity, intent.quantity);
  if (quantity !== null) diffs.push(quantity);
  if (order.clientOrderId != null && order.clientOrderId !== clientOrderId) {
    diffs.push(`clientOrderId ${order.clientOrderId} ≠ ${clientOrderId}`);
  }
  return diffs;
}

/**
 * Checks a cancel prepare response: when it echoes an order, it is ours (same orderId) and the
 * contract we asked to cancel; when it needs a signature, the envelope is there.
 */
export function checkCancelEcho(
  expected: { readonly orderId: string | null; readonly contractId: string },
  result: PrepareCancelResult,
): EchoVerdict {
  const diffs: string[] = [];
  const o = result.order;
  if (o !== undefined) {
    if (expected.orderId !== null && o.orderId !== expected.orderId) {
      diffs.push(`orderId ${o.orderId} ≠ ${expected.orderId}`);
    }
    if (o.contractId !== null && o.contractId !== expected.contractId) {
      diffs.push(`contractId ${o.contractId} ≠ ${expected.contractId}`);
    }
  }
  if (!result.cancelled) {
    if (result.signing === null) diffs.push('no signing envelope on an unfinished cancel');
    else if (!result.signing.requiresSignature) diffs.push('signing.requiresSignature is false');
  }
  return verdict(diffs);
}
