/**
 * The simulated venue's operator endpoints under `/admin`, outside the venue contract: reads of
 * the ground truth and the accounts, and the operator's actions (onboarding, account status, API
 * keys, public key, deposits and withdrawals, preapprovals, force-cancel, faults, freezing the
 * book projection). Served on loopback only; tests drive the venue's side of a scenario with
 * them, and `ledger-mm sim-venue` and paper mode print their URL for an operator.
 */
import { DECIMAL_STRING, type Dec, dec } from '../../core/decimal.js';
import type { AccountSetup } from '../engine/venue-engine.js';
import { accountView } from '../engine/reads.js';
import { SimError, validationError } from '../engine/sim-error.js';
import type { FaultSpecInput } from '../faults.js';
import type { Route, RouteContext, RouteResult } from './types.js';

function obj(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw validationError('Body must be a JSON object');
  return body as Record<string, unknown>;
}

function str(body: unknown, field: string): string {
  const v = obj(body)[field];
  if (typeof v !== 'string' || v === '') throw validationError(`${field} is required`);
  return v;
}

function amount(body: unknown): Dec {
  const v = obj(body)['amount'];
  if (typeof v !== 'string' || !DECIMAL_STRING.test(v))
    throw validationError('amount must be a decimal string');
  return dec(v);
}

/** `expiresAt`: an ISO date-time, clock milliseconds, or null (never). */
function expiresAt(body: unknown): number | null {
  const v = obj(body)['expiresAt'];
  if (v === null || v === undefined) return null;
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && !Number.isNaN(Date.parse(v))) return Date.parse(v);
  throw validationError('expiresAt must be an ISO date-time, epoch milliseconds or null');
}

const ok = (data: unknown): RouteResult => ({ status: 200, data });

function admin(method: 'GET' | 'POST', pattern: string, handle: (ctx: RouteContext) => RouteResult): Route {
  return {
    host: 'admin',
    method,
    pattern: `/admin${pattern}`,
    endpoint: 'admin',
    auth: false,
    latency: () => null,
    handle,
  };
}

/**
 * The operator's endpoints, served on loopback only (under `/admin` on the base server):
 * account status, keys (issue, revoke, reinstate a revoked one, expiry), wallet movements,
 * preapprovals, stranded-order clearing, faults, and reads of the ground truth.
 */
export const ADMIN_ROUTES: Route[] = [
  admin('GET', '/truth/orders', (ctx) => ok({ orders: ctx.engine.truth.orders() })),
  admin('GET', '/truth/calls', (ctx) => ok({ calls: ctx.engine.truth.calls() })),
  admin('GET', '/truth/commits', (ctx) => ok({ commits: ctx.engine.truth.commits() })),
  admin('GET', '/truth/balances', (ctx) => ok({ balances: ctx.engine.truth.balances(ctx.query['partyId']) })),
  admin('GET', '/truth/trades', (ctx) => ok({ trades: ctx.engine.truth.trades() })),
  admin('GET', '/truth/events', (ctx) => ok({ events: ctx.engine.truth.events() })),
  admin('GET', '/truth/placements', (ctx) =>
    ok({ placements: ctx.engine.truth.placementSpans(ctx.query['partyId']) }),
  ),
  admin('GET', '/accounts', (ctx) =>
    ok({
      accounts: ctx.engine.core.accounts.all().map((a) => ({
        ...accountView(a),
        keyPrefixes: ctx.engine.core.accounts.keyPrefixes(a.slug),
        balances: ctx.engine.balancesOf(a.slug),
        preapprovals: [...a.preapprovals].sort(),
      })),
    }),
  ),
  admin('POST', '/auth', (ctx) => {
    const configured = obj(ctx.body)['configured'];
    if (typeof configured !== 'boolean') throw validationError('configured must be a boolean');
    ctx.engine.operator.setAuthConfigured(configured);
    return ok({ configured });
  }),
  admin('POST', '/accounts', (ctx) => {
    const setup = obj(ctx.body) as unknown as AccountSetup;
    if (typeof setup.name !== 'string' || typeof setup.slug !== 'string')
      throw validationError('name and slug are required');
    const { account, apiKey } = ctx.engine.registerAccount(setup);
    return { status: 201, data: { apiKey, account: accountView(account) } };
  }),
  admin('POST', '/accounts/:slug/status', (ctx) => {
    const status = str(ctx.body, 'status');
    if (status !== 'ACTIVE' && status !== 'SUSPENDED' && status !== 'DISABLED')
      throw validationError('bad status');
    ctx.engine.operator.setAccountStatus(ctx.params['slug']!, status);
    return ok({ status });
  }),
  admin(
    'POST',
    '/accounts/:slug/suspend',
    (ctx) => (ctx.engine.operator.suspend(ctx.params['slug']!), ok({ status: 'SUSPENDED' })),
  ),
  admin(
    'POST',
    '/accounts/:slug/disable',
    (ctx) => (ctx.engine.operator.disable(ctx.params['slug']!), ok({ status: 'DISABLED' })),
  ),
  admin(
    'POST',
    '/accounts/:slug/reactivate',
    (ctx) => (ctx.engine.operator.reactivate(ctx.params['slug']!), ok({ status: 'ACTIVE' })),
  ),
  admin('POST', '/accounts/:slug/keys', (ctx) => ({
    status: 201,
    data: { apiKey: ctx.engine.operator.issueKey(ctx.params['slug']!, { expiresAt: expiresAt(ctx.body) }) },
  })),
  admin('POST', '/accounts/:slug/public-key', (ctx) => {
    ctx.engine.operator.setPublicKey(ctx.params['slug']!, str(ctx.body, 'publicKey'));
    return ok({});
  }),
  admin('POST', '/accounts/:slug/deposit', (ctx) => {
    ctx.engine.operator.deposit(ctx.params['slug']!, str(ctx.body, 'token'), amount(ctx.body));
    return ok({ balances: ctx.engine.balancesOf(ctx.params['slug']!) });
  }),
  admin('POST', '/accounts/:slug/withdraw', (ctx) => {
    const result = ctx.engine.operator.withdraw(
      ctx.params['slug']!,
      str(ctx.body, 'token'),
      amount(ctx.body),
    );
    return ok({ ...result, balances: ctx.engine.balancesOf(ctx.params['slug']!) });
  }),
  admin('POST', '/accounts/:slug/preapprovals/:token/remove', (ctx) => {
    ctx.engine.operator.removePreapproval(ctx.params['slug']!, ctx.params['token']!);
    return ok({});
  }),
  admin('POST', '/accounts/:slug/preapprovals/:token/add', (ctx) => {
    ctx.engine.operator.addPreapproval(ctx.params['slug']!, ctx.params['token']!);
    return ok({});
  }),
  admin(
    'POST',
    '/keys/:prefix/revoke',
    (ctx) => (ctx.engine.operator.revokeKey(ctx.params['prefix']!), ok({})),
  ),
  admin(
    'POST',
    '/keys/:prefix/reinstate',
    (ctx) => (ctx.engine.operator.reinstateKey(ctx.params['prefix']!), ok({})),
  ),
  admin('POST', '/keys/:prefix/expiry', (ctx) => {
    ctx.engine.operator.setKeyExpiry(ctx.params['prefix']!, expiresAt(ctx.body));
    return ok({});
  }),
  admin(
    'POST',
    '/orders/:orderId/force-cancel',
    (ctx) => (ctx.engine.operator.forceCancel(ctx.params['orderId']!), ok({})),
  ),
  admin('GET', '/faults', (ctx) => ok({ faults: ctx.faults.list() })),
  admin('POST', '/faults', (ctx) => {
    try {
      return { status: 201, data: { id: ctx.faults.add(obj(ctx.body) as unknown as FaultSpecInput) } };
    } catch (err) {
      if (err instanceof SimError) throw err;
      throw validationError(`invalid fault: ${err instanceof Error ? err.message : String(err)}`);
    }
  }),
  admin('POST', '/faults/:id/remove', (ctx) => ok({ removed: ctx.faults.remove(ctx.params['id']!) })),
  admin('POST', '/book/freeze', (ctx) => {
    const ms = obj(ctx.body)['durationMs'];
    if (typeof ms !== 'number' || !(ms > 0)) throw validationError('durationMs must be a positive number');
    ctx.engine.core.projection.freeze(ctx.engine.core.now() + ms);
    return ok({});
  }),
];
