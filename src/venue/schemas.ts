/**
 * Wire schemas for every resource in the venue contract (`venue-api.md` section 2). Every
 * response is validated here at the boundary; nothing downstream sees an unvalidated body.
 *
 * Objects are `looseObject`: the venue may add fields, and fields marked "not shown" in the
 * contract must not break parsing. Decimals stay strings on the wire and are parsed with
 * `dec()` where they are used.
 */
import { z } from 'zod';
import { DECIMAL_STRING } from '../core/decimal.js';
import {
  KNOWN_ORDER_TYPES,
  SIDES,
  type OrderType as DomainOrderType,
  type Side as DomainSide,
} from '../core/order-terms.js';

/** A decimal string as the venue sends it. */
export const DecimalString = z.string().regex(DECIMAL_STRING, 'decimal string');

/** Order sides (the domain's {@link SIDES}). */
export const Side = z.enum(SIDES);
export type Side = DomainSide;

/** Order types. Other values: not shown in the contract, so unknown strings are kept. */
export const OrderType = z.union([z.enum(KNOWN_ORDER_TYPES), z.string()]);
export type OrderType = DomainOrderType;

/**
 * Venue order statuses. The contract names the resting ones (OPEN, PARTIALLY_FILLED,
 * PENDING_TRIGGER); the terminal names are the ones the simulator uses and are documented in
 * `src/core/order-status.ts`. Unknown strings are kept, never rejected.
 */
export const OrderStatus = z.string();

export const Pair = z.looseObject({
  pair: z.string(),
  base: z.string(),
  quote: z.string(),
  minQuoteAmount: DecimalString.nullable(),
  feeSymbol: z.string().nullable(),
});
export type Pair = z.infer<typeof Pair>;

export const PairsData = z.looseObject({ pairs: z.array(Pair) });
export type PairsData = z.infer<typeof PairsData>;

export const AccountStatus = z.union([z.enum(['ACTIVE', 'SUSPENDED', 'DISABLED']), z.string()]);

export const Account = z.looseObject({
  name: z.string(),
  slug: z.string(),
  partyId: z.string(),
  status: AccountStatus,
  feeExempt: z.boolean(),
  clientOrderIdPrefix: z.string(),
  limits: z.looseObject({
    allowedPairs: z.union([z.array(z.string()), z.literal('all')]),
    maxOpenOrders: z.number().int().nullable(),
    ordersPerMinute: z.number().int().nullable(),
  }),
});
export type Account = z.infer<typeof Account>;

export const CancelFee = z.looseObject({ charged: z.boolean(), amount: DecimalString });

export const Order = z.looseObject({
  contractId: z.string().nullable(),
  orderId: z.string(),
  pair: z.string(),
  side: Side,
  type: OrderType,
  price: DecimalString.nullable().optional(),
  quantity: DecimalString,
  filled: DecimalString,
  status: OrderStatus.nullable(),
  stopPrice: DecimalString.nullable().optional(),
  timestamp: z.string().optional(),
  updatedAt: z.string().optional(),
  clientOrderId: z.string().nullable().optional(),
  correlationId: z.string().nullable().optional(),
  providerFeeAmount: DecimalString.nullable().optional(),
  cancelFee: CancelFee.nullable().optional(),
});
export type Order = z.infer<typeof Order>;

export const SigningEnvelope = z.looseObject({
  requiresSignature: z.boolean(),
  preparedTransactionHash: z.string(),
  hashingSchemeVersion: z.string(),
  commandId: z.string(),
  submitToken: z.string(),
  submitUrl: z.string(),
  status: z.string().optional(),
  signingUrl: z.string().nullable().optional(),
  /** The prepare result; its `preparedTransaction` (base64 protobuf) is what clear signing checks. */
  prepared: z.unknown().optional(),
});
export type SigningEnvelope = z.infer<typeof SigningEnvelope>;

/**
 * `data.signing` when there is nothing to sign (a 201): either `null`, or the envelope with
 * `requiresSignature: false` and its other fields null. Both read as null.
 */
const SigningOrNothing = z
  .union([SigningEnvelope, z.looseObject({ requiresSignature: z.literal(false) }).transform(() => null)])
  .nullable()
  .optional();

/** data of POST /orders. On 201 (already resting) there is nothing to sign, so `signing` may be absent or null. */
export const PrepareOrderData = z.looseObject({
  order: Order,
  signing: SigningOrNothing,
});
export type PrepareOrderData = z.infer<typeof PrepareOrderData>;

/** data of POST /orders/{contractId}/cancel. */
export const PrepareCancelData = z.looseObject({
  cancelled: z.boolean(),
  order: Order.optional(),
  signing: SigningOrNothing,
});
export type PrepareCancelData = z.infer<typeof PrepareCancelData>;

export const OrderData = z.looseObject({ order: Order });

export const Pagination = z.looseObject({
  limit: z.number().int(),
  cursor: z.string().nullable(),
  hasMore: z.boolean(),
});

export const OrdersData = z.looseObject({ orders: z.array(Order), pagination: Pagination });
export type OrdersData = z.infer<typeof OrdersData>;

export const Level = z.tuple([DecimalString, DecimalString]);

export const OrderBook = z.looseObject({
  pair: z.string(),
  bids: z.array(Level),
  asks: z.array(Level),
  asOf: z.looseObject({
    updateId: z.number().int().nullable(),
    sequence: z.number().int(),
    source: z.string(),
  }),
});
export type OrderBook = z.infer<typeof OrderBook>;

export const PublicTrade = z.looseObject({
  tradeId: z.string(),
  price: DecimalString,
  quantity: DecimalString,
  executedAt: z.string(),
});
export type PublicTrade = z.infer<typeof PublicTrade>;

export const TradesData = z.looseObject({
  pair: z.string().nullable(),
  trades: z.array(PublicTrade),
  nextCursor: z.string().nullable(),
});
export type TradesData = z.infer<typeof TradesData>;

const BalanceAmounts = z.looseObject({ available: DecimalString, locked: DecimalString });
const BalanceEntry = BalanceAmounts.extend({
  instrument: z.string().optional(),
  token: z.string().optional(),
  symbol: z.string().optional(),
  asset: z.string().optional(),
});

/**
 * The surrounding structure of GET /balances is "not shown". Accepted shapes:
 * `{balances: [{instrument|token|symbol|asset, available, locked}]}`, a bare array of those, or
 * a map `{balances?: {TOKEN: {available, locked}}}`. All normalise to {@link Balance}[].
 */
export const BalancesData = z
  .union([
    z.looseObject({ balances: z.array(BalanceEntry) }),
    z.array(BalanceEntry),
    z.looseObject({ balances: z.record(z.string(), BalanceAmounts) }),
    z.record(z.string(), BalanceAmounts),
  ])
  .transform((v, ctx): Balance[] => {
    const entries = Array.isArray(v) ? v : 'balances' in v ? v.balances : v;
    if (Array.isArray(entries)) {
      const out: Balance[] = [];
      for (const e of entries) {
        const instrument = e.instrument ?? e.token ?? e.symbol ?? e.asset;
        if (instrument === undefined) {
          ctx.addIssue({ code: 'custom', message: 'balance entry without an instrument name' });
          return z.NEVER;
        }
        out.push({ instrument, available: e.available, locked: e.locked });
      }
      return out;
    }
    return Object.entries(entries as Record<string, { available: string; locked: string }>).map(
      ([instrument, b]) => ({ instrument, available: b.available, locked: b.locked }),
    );
  });

/** One instrument's balance, normalised. */
export interface Balance {
  instrument: string;
  available: string;
  locked: string;
}

/** The error body of a failed call (section 2, "Error body"). */
export const ErrorBody = z.looseObject({
  ok: z.literal(false),
  error: z.looseObject({
    code: z.string(),
    message: z.string().optional(),
    expectedPrefix: z.string().optional(),
    allowedPairs: z.array(z.string()).optional(),
    limit: z.number().int().optional(),
    openOrders: z.number().int().optional(),
    maxOpenOrders: z.number().int().optional(),
    correlationId: z.string().optional(),
  }),
  meta: z.looseObject({ requestId: z.string().optional() }).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** The success envelope around `data`. */
export function okEnvelope<T extends z.ZodType>(data: T) {
  return z.looseObject({ ok: z.literal(true), data, meta: z.unknown().optional() });
}

/** The submission body (section 4, "Submit"). */
export interface SubmitBody {
  partyId: string;
  commandId: string;
  signature: string;
  publicKey: string;
  submitToken: string;
  prepared: { preparedTransactionHash: string; hashingSchemeVersion: string };
}

/** The body of POST /orders. */
export interface PrepareOrderBody {
  pair: string;
  side: Side;
  type: 'LIMIT' | 'MARKET';
  price?: string;
  quantity: string;
  clientOrderId?: string;
}
