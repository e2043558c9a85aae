/**
 * `data.signing` of a prepare response. `prepared` carries the Canton prepare result: the base64
 * `preparedTransaction` whose hash `preparedTransactionHash` is.
 */
import type { PreparedCommand } from '../engine/commands.js';
import { sealCommand } from '../engine/prepared-transaction.js';
import { orderToWire } from '../engine/orders.js';
import {
  accountView,
  balancesView,
  orderBookView,
  orderView,
  ordersView,
  pairsView,
  tradesView,
} from '../engine/reads.js';
import { SimError, validationError } from '../engine/sim-error.js';
import type { SigningEnvelope } from '../../venue/schemas.js';
import type { Route, RouteContext } from './types.js';

/** See the module doc. */
export function signingEnvelope(cmd: PreparedCommand, submitUrl: string): SigningEnvelope {
  return {
    requiresSignature: true,
    preparedTransactionHash: cmd.hashB64,
    hashingSchemeVersion: cmd.hashingSchemeVersion,
    commandId: cmd.commandId,
    submitToken: cmd.submitToken,
    submitUrl,
    status: 'PENDING_SIGNATURE',
    signingUrl: `${new URL(submitUrl).origin}/signing/${cmd.commandId}`,
    prepared: cmd.preparedTransaction === null ? {} : { preparedTransaction: cmd.preparedTransaction },
  };
}

/** `data.signing` of a 201 (the order already rests): the envelope's shape, nothing to sign. */
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

function balancesCold(ctx: Pick<RouteContext, 'engine' | 'account'>): boolean {
  const warmAt = ctx.account?.balancesWarmAt ?? null;
  const ttl = ctx.engine.core.settings.balanceCacheTtlMs;
  return warmAt === null || ctx.engine.core.now() - warmAt > ttl;
}

function refreshWallet(ctx: Pick<RouteContext, 'query'>): boolean {
  const v = ctx.query['refreshWallet'];
  return v === undefined || v === 'true' || v === '1';
}

/** The trade API (base URL `…/v1`) and the submission host (`/submit`). */
export const API_ROUTES: Route[] = [
  {
    host: 'api',
    method: 'GET',
    pattern: '/v1/pairs',
    endpoint: 'pairs',
    auth: false,
    latency: () => 'read',
    handle: (ctx) => ({ status: 200, data: pairsView(ctx.engine.core) }),
  },
  {
    host: 'api',
    method: 'GET',
    pattern: '/v1/orderbook/*pair',
    endpoint: 'orderbook',
    auth: false,
    latency: () => 'read',
    handle: (ctx) => ({ status: 200, data: orderBookView(ctx.engine.core, ctx.params['pair']!, ctx.query) }),
  },
  {
    host: 'api',
    method: 'GET',
    pattern: '/v1/trades',
    endpoint: 'trades',
    auth: false,
    latency: () => 'read',
    handle: (ctx) => ({ status: 200, data: tradesView(ctx.engine.core, ctx.query) }),
  },
  {
    host: 'api',
    method: 'GET',
    pattern: '/v1/account',
    endpoint: 'account',
    auth: true,
    latency: () => 'read',
    handle: (ctx) => ({ status: 200, data: accountView(ctx.account!) }),
  },
  {
    host: 'api',
    method: 'GET',
    pattern: '/v1/orders',
    endpoint: 'orders',
    auth: true,
    latency: (ctx) => (refreshWallet(ctx) ? 'ordersRefresh' : 'ordersNoRefresh'),
    handle: (ctx) => ({ status: 200, data: ordersView(ctx.engine.core, ctx.account!, ctx.query) }),
  },
  {
    host: 'api',
    method: 'GET',
    pattern: '/v1/orders/:orderId',
    endpoint: 'order',
    auth: true,
    latency: () => 'read',
    handle: (ctx) => ({
      status: 200,
      data: orderView(ctx.engine.core, ctx.account!, ctx.params['orderId']!),
    }),
  },
  {
    host: 'api',
    method: 'GET',
    pattern: '/v1/balances',
    endpoint: 'balances',
    auth: true,
    latency: (ctx) => (balancesCold(ctx) ? 'balancesCold' : 'balancesWarm'),
    handle: (ctx) => {
      if (Object.keys(ctx.query).length > 0) throw validationError('GET /balances takes no parameters');
      ctx.account!.balancesWarmAt = ctx.engine.core.now();
      return { status: 200, data: balancesView(ctx.engine.core, ctx.account!) };
    },
  },
  {
    host: 'api',
    method: 'POST',
    pattern: '/v1/orders',
    endpoint: 'prepare',
    auth: true,
    latency: () => 'prepare',
    handle: async (ctx) => {
      const outcome = ctx.engine.prepareOrder(ctx.account!, ctx.body);
      if (outcome.kind === 'prepared')
        await sealCommand(ctx.engine.core, outcome.command, outcome.order, ctx.tamper);
      ctx.call.orderId = outcome.order.orderId;
      ctx.call.clientOrderId = outcome.order.clientOrderId ?? undefined;
      ctx.call.commandId = outcome.command?.commandId;
      ctx.call.commandKind = 'place';
      return {
        status: outcome.kind === 'existing' ? 201 : 202,
        data: {
          order: orderToWire(outcome.order),
          signing: outcome.command ? signingEnvelope(outcome.command, ctx.submitUrl) : NOTHING_TO_SIGN,
        },
      };
    },
  },
  {
    // Deliberately unsupported: bulk cancel cannot exist on this ledger. No key needed to learn that.
    host: 'api',
    method: 'POST',
    pattern: '/v1/orders/cancel',
    endpoint: 'cancelBulk',
    auth: false,
    latency: () => 'read',
    handle: () => {
      throw new SimError(404, 'NOT_SUPPORTED', 'Bulk cancel is not supported; cancel orders one by one');
    },
  },
  {
    host: 'api',
    method: 'POST',
    pattern: '/v1/orders/:contractId/cancel',
    endpoint: 'cancelPrepare',
    auth: true,
    latency: () => 'cancelPrepare',
    handle: async (ctx) => {
      const { order, command } = ctx.engine.prepareCancel(ctx.account!, ctx.params['contractId']!, ctx.body);
      await sealCommand(ctx.engine.core, command, order, ctx.tamper);
      ctx.call.orderId = order.orderId;
      ctx.call.commandId = command.commandId;
      ctx.call.commandKind = 'cancel';
      return {
        status: 202,
        data: {
          cancelled: false,
          order: orderToWire(order),
          signing: signingEnvelope(command, ctx.submitUrl),
        },
      };
    },
  },
  {
    host: 'submit',
    method: 'POST',
    pattern: '/submit',
    endpoint: 'submit',
    auth: false,
    latency: () => 'submit',
    handle: (ctx) => {
      // The ledger commits after the answer: the host's own delay, then the confirmation delay.
      const result = ctx.engine.submit(ctx.body, {
        commitDelayMs: (kind) =>
          ctx.answerDelayMs + ctx.latency.sample(kind === 'place' ? 'confirm' : 'cancelConfirm'),
        dispatch: !ctx.noCommit,
      });
      const cmd = result.command;
      ctx.call.verdict = 'valid';
      ctx.call.commandId = cmd.commandId;
      ctx.call.commandKind = cmd.kind;
      ctx.call.orderId = cmd.orderId;
      ctx.call.partyId = cmd.partyId;
      return { status: 200, empty: true };
    },
  },
];
