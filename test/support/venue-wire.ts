/** Venue wire values several suites send or expect (venue contract, section 4). */

/**
 * The `signing` of a prepare answered 201 (the clientOrderId names a live order): nothing to
 * sign, every other field null.
 */
export const NOTHING_TO_SIGN = {
  requiresSignature: false,
  preparedTransactionHash: null,
  hashingSchemeVersion: null,
  commandId: null,
  submitToken: null,
  submitUrl: null,
  status: null,
  signingUrl: null,
  prepared: null,
} as const;

/** A POST /orders body: BTC/USDC BUY LIMIT 0.01 @ 50000, fields overridable. */
export function limitOrderBody(over: Record<string, unknown> = {}): Record<string, unknown> {
  return { pair: 'BTC/USDC', side: 'BUY', type: 'LIMIT', price: '50000', quantity: '0.01', ...over };
}
