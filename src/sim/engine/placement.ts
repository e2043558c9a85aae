/**
 * The prepare step of a placement on the simulated venue, POST /orders: the contract's checks in
 * its order, each with its own code (rate, account status, pair, body, clientOrderId prefix and
 * idempotency, one awaiting placement per party, minimum notional, preapprovals, open-order cap,
 * available balance), then a placement command to sign. Nothing is locked until it commits.
 */
import { DECIMAL_STRING, type Dec, ZERO, dec } from '../../core/decimal.js';
import type { Account } from './accounts.js';
import type { PreparedCommand } from './commands.js';
import { createCommand } from './commands-lifecycle.js';
import type { EngineCore } from './engine-core.js';
import { type OrderRecord, isRestingOrder } from './orders.js';
import { SimError, validationError } from './sim-error.js';

/** Longest clientOrderId accepted. */
export const MAX_CLIENT_ORDER_ID = 120;
/** Most decimal places a price may carry; longer prices are rejected, never rounded. */
export const MAX_PRICE_DECIMALS = 10;

/** The outcome of POST /orders. */
export type PrepareOutcome =
  /** 202: a new placement to sign. */
  | { kind: 'prepared'; order: OrderRecord; command: PreparedCommand }
  /** 202 again: the same clientOrderId is still awaiting its signature. */
  | { kind: 'pending'; order: OrderRecord; command: PreparedCommand }
  /** 201: the clientOrderId's order already committed; nothing to sign. */
  | { kind: 'existing'; order: OrderRecord; command: null };

/** The validated body of POST /orders. */
interface OrderIntent {
  pair: string;
  side: 'BUY' | 'SELL';
  type: 'LIMIT' | 'MARKET';
  price: Dec | null;
  quantity: Dec;
  clientOrderId: string | null;
}

/**
 * POST /orders. The checks, in order, each with its own code:
 *
 * 1. the per-minute rate (429 RATE_LIMITED, `limit`): every prepare arrival counts;
 * 2. the account is ACTIVE (403 MARKET_MAKER_SUSPENDED, for SUSPENDED and DISABLED alike: the
 *    contract has one code for a refused non-active account);
 * 3. the pair is listed and allowed (403 PAIR_NOT_ALLOWED, `allowedPairs`);
 * 4. side, type, quantity, price (LIMIT needs one, MARKET takes none; ≤ 10 decimals; on the
 *    tick when the pair has one) — 400 VALIDATION_ERROR;
 * 5. clientOrderId: the prefix (400 INVALID_CLIENT_ORDER_ID, `expectedPrefix`), then the
 *    120-character cap (400 VALIDATION_ERROR);
 * 6. idempotency on clientOrderId: its committed order → 201 with it (any status: a
 *    clientOrderId never creates a second order); its prepare still unsigned → the same 202;
 *    its placement submitted and awaiting the ledger → LEDGER_COMMAND_REJECTED. Only a
 *    clientOrderId whose earlier prepare expired or was rejected can start afresh. The key wins
 *    over the body: a different body with a used clientOrderId gets the first order;
 * 7. one placement at a time per party: while one is submitted and unconfirmed, 400
 *    LEDGER_COMMAND_REJECTED;
 * 8. notional ≥ minQuoteAmount (400 VALIDATION_ERROR; a MARKET order is valued at the best
 *    opposite price, and refused when that side is empty);
 * 9. a transfer preapproval for every token of the pair (the tokens the account can receive on
 *    it): the ledger refuses the command, 400 LEDGER_COMMAND_REJECTED — the one place this
 *    choice is made;
 * 10. resting + awaiting orders below maxOpenOrders (429 MAX_OPEN_ORDERS, `openOrders`,
 *     `maxOpenOrders`);
 * 11. available balance of the spending token (BUY: price × quantity of quote; SELL: quantity
 *     of base) — 400 INSUFFICIENT_BALANCE. Nothing is locked until the placement commits.
 */
export function prepareOrder(core: EngineCore, account: Account, body: unknown): PrepareOutcome {
  const now = core.now();
  core.accounts.takeRateSlot(account, now);
  if (account.status !== 'ACTIVE') {
    throw new SimError(
      403,
      'MARKET_MAKER_SUSPENDED',
      `Account is ${account.status}; new placements are refused`,
    );
  }
  const intent = parseIntent(core, account, body);

  if (intent.clientOrderId !== null) {
    const previous = core.orders.byClientOrderId(account.partyId, intent.clientOrderId);
    const previousCmd = previous ? core.commands.get(previous.placeCommandId) : undefined;
    if (previous?.committed) return { kind: 'existing', order: previous, command: null };
    if (previous && previousCmd?.state === 'prepared')
      return { kind: 'pending', order: previous, command: previousCmd };
    if (previous && previousCmd?.state === 'submitted') {
      throw new SimError(
        400,
        'LEDGER_COMMAND_REJECTED',
        'A placement with this clientOrderId awaits ledger confirmation',
        {},
        true,
      );
    }
  }
  if (core.commands.awaitingPlacements(account.partyId).length > 0) {
    throw new SimError(
      400,
      'LEDGER_COMMAND_REJECTED',
      "The party's previous placement awaits ledger confirmation",
      {},
      true,
    );
  }

  const spec = core.pair(intent.pair);
  const book = core.book(intent.pair);
  let valuation: Dec;
  let spend: Dec;
  if (intent.price !== null) {
    valuation = intent.price;
    spend = intent.side === 'BUY' ? intent.price.times(intent.quantity) : intent.quantity;
  } else {
    const taker = { side: intent.side, order: null };
    const fills = core.plan(book, taker, intent.quantity, null);
    const best = fills[0]?.entry.price;
    if (best === undefined) throw validationError('No liquidity to value a MARKET order');
    valuation = best;
    const cost = fills.reduce((sum, f) => sum.plus(f.entry.price.times(f.qty)), ZERO);
    spend = intent.side === 'BUY' ? cost : intent.quantity;
  }
  if (spec.minQuoteAmount !== null && valuation.times(intent.quantity).lt(spec.minQuoteAmount)) {
    throw validationError(
      `Order notional is below the pair's minQuoteAmount ${spec.minQuoteAmount.toFixed()}`,
    );
  }
  for (const token of [spec.base, spec.quote]) {
    if (!account.preapprovals.has(token)) {
      throw new SimError(400, 'LEDGER_COMMAND_REJECTED', `No transfer preapproval for ${token}`, {}, true);
    }
  }
  if (account.maxOpenOrders !== null) {
    const open =
      core.orders.notEnded(account.partyId).filter(isRestingOrder).length +
      core.commands.awaitingPlacements(account.partyId).length;
    if (open >= account.maxOpenOrders) {
      throw new SimError(429, 'MAX_OPEN_ORDERS', `At the open-order cap of ${account.maxOpenOrders}`, {
        openOrders: open,
        maxOpenOrders: account.maxOpenOrders,
      });
    }
  }
  const spendToken = intent.side === 'BUY' ? spec.quote : spec.base;
  if (core.wallets.available(account.partyId, spendToken).lt(spend)) {
    throw new SimError(400, 'INSUFFICIENT_BALANCE', `Not enough ${spendToken} available`);
  }

  const orderId = core.ids.orderId();
  const command = createCommand(core, {
    kind: 'place',
    partyId: account.partyId,
    orderId,
    contractId: null,
    reason: null,
  });
  const order = core.orders.create({
    orderId,
    partyId: account.partyId,
    accountSlug: account.slug,
    pair: spec.pair,
    base: spec.base,
    quote: spec.quote,
    side: intent.side,
    type: intent.type,
    price: intent.price,
    quantity: intent.quantity,
    clientOrderId: intent.clientOrderId,
    correlationId: core.ids.correlationId(),
    createdAt: now,
    lockToken: spendToken,
    placeCommandId: command.commandId,
  });
  return { kind: 'prepared', order, command };
}

function parseIntent(core: EngineCore, account: Account, body: unknown): OrderIntent {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw validationError('Body must be a JSON object');
  const b = body as Record<string, unknown>;
  const allowed = account.allowedPairs === 'all' ? [...core.pairs.keys()] : account.allowedPairs;
  if (typeof b['pair'] !== 'string' || b['pair'] === '') throw validationError('pair is required');
  const pair = b['pair'];
  if (!allowed.includes(pair) || !core.pairs.has(pair)) {
    throw new SimError(403, 'PAIR_NOT_ALLOWED', `Pair ${pair} is not enabled for this account`, {
      allowedPairs: allowed.filter((p) => core.pairs.has(p)),
    });
  }
  const side = b['side'];
  if (side !== 'BUY' && side !== 'SELL') throw validationError('side must be BUY or SELL');
  const type = b['type'];
  if (type !== 'LIMIT' && type !== 'MARKET') throw validationError('type must be LIMIT or MARKET');
  const quantity = positiveDecimal(b['quantity'], 'quantity');
  let price: Dec | null = null;
  if (type === 'LIMIT') {
    if (b['price'] === undefined || b['price'] === null) throw validationError('price is required for LIMIT');
    price = positiveDecimal(b['price'], 'price');
    // Counted on the wire text: "1.00000000000" has 11 places even though its value has none.
    if (wireDecimalPlaces(b['price']) > MAX_PRICE_DECIMALS) {
      throw validationError(`price has more than ${MAX_PRICE_DECIMALS} decimal places`);
    }
    const tick = core.pair(pair).tick;
    if (tick !== null && !price.mod(tick).eq(0))
      throw validationError(`price is not a multiple of the tick ${tick.toFixed()}`);
  } else if (b['price'] !== undefined && b['price'] !== null) {
    throw validationError('price is not accepted on a MARKET order');
  }
  let clientOrderId: string | null = null;
  if (b['clientOrderId'] !== undefined && b['clientOrderId'] !== null) {
    if (typeof b['clientOrderId'] !== 'string') throw validationError('clientOrderId must be a string');
    const prefix = `${account.slug}-`;
    if (!b['clientOrderId'].startsWith(prefix)) {
      throw new SimError(400, 'INVALID_CLIENT_ORDER_ID', `clientOrderId must start with ${prefix}`, {
        expectedPrefix: prefix,
      });
    }
    if (b['clientOrderId'].length > MAX_CLIENT_ORDER_ID) {
      throw validationError(`clientOrderId is longer than ${MAX_CLIENT_ORDER_ID} characters`);
    }
    clientOrderId = b['clientOrderId'];
  }
  return { pair, side, type, price, quantity, clientOrderId };
}

function positiveDecimal(value: unknown, field: string): Dec {
  if (typeof value !== 'string' || !DECIMAL_STRING.test(value))
    throw validationError(`${field} must be a decimal string`);
  const d = dec(value);
  if (d.lte(0)) throw validationError(`${field} must be positive`);
  return d;
}

/** Decimal places as written in a wire value (trailing zeros count). */
function wireDecimalPlaces(value: unknown): number {
  const text = String(value);
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}
