/**
 * The words of an order that every layer shares: its side and its type. They are domain
 * vocabulary (the strategy quotes a side, the state machine tracks one, the risk gate limits one);
 * the venue's wire schemas validate against them (`src/venue/schemas.ts`), not the other way round.
 */

/** Order sides. */
export const SIDES = ['BUY', 'SELL'] as const;
/** An order side. */
export type Side = (typeof SIDES)[number];

/** The order types the contract names. */
export const KNOWN_ORDER_TYPES = ['LIMIT', 'MARKET'] as const;
/** A known order type. */
export type KnownOrderType = (typeof KNOWN_ORDER_TYPES)[number];
/** An order type. Other values are "not shown" in the contract, so unknown strings are kept. */
export type OrderType = KnownOrderType | (string & {});
