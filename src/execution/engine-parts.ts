/**
 * The parts of an `OrderEngine`: built around an open journal when it starts (registry,
 * inventory, pipeline, cancel pool, resolver, orders poller, evictor), and closed in order.
 */
import { timeoutSignal, type Clock } from '../core/clock.js';
import { Poller } from '../core/poller.js';
import { journalWriteAhead, type Journal } from '../orders/journal/index.js';
import { OrderRegistry } from '../orders/order-registry.js';
import type { TrackedOrder } from '../orders/fsm/index.js';
import { PreparedVerifier } from '../signing/prepared-verifier.js';
import { raceSignal } from './backoff.js';
import { CancelPool } from './cancel/cancel-pool.js';
import { ClientOrderIdFactory } from './placement/client-order-id.js';
import { CredentialBackoff } from './credential-backoff.js';
import type { ExecutionDeps } from './execution-context.js';
import type { CancelOutcome } from './execution-events.js';
import { FillTracker } from './fills.js';
import { Inventory } from './inventory.js';
import type { CloseOptions, EngineEvent, OrderEngineOptions } from './engine-types.js';
import { DEFAULT_EXECUTION_SETTINGS } from './execution-settings.js';
import { IgnoredOrders, OrdersPoller, UnknownOrders } from './resolve/orders-poller.js';
import { PlacementPipeline } from './placement/placement-pipeline.js';
import { UnknownResolver } from './resolve/unknown-resolver.js';

/** The parts `OrderEngine.start` builds. */
export type EngineParts = ReturnType<typeof buildParts>;

/** Builds the engine's parts around an open journal (no IO). */
export function buildParts(
  o: OrderEngineOptions,
  journal: Journal<TrackedOrder>,
  emit: (e: EngineEvent) => void,
  evict: { readonly every: number; readonly run: () => void } | null,
) {
  const registry = new OrderRegistry({ writeAhead: journalWriteAhead(journal) });
  const inventory = Inventory.fromFills(
    journal.fills().map((f) => ({ pair: f.pair, side: f.side, price: f.price, quantity: f.delta })),
  );
  const { venue, signer, partyId, clock } = o;
  const verifier = new PreparedVerifier({ policy: 'if-present', ...o.verification, partyId });
  // One credential state per party: a key refused to any component slows the reads of all.
  const credentials = new CredentialBackoff();
  const deps: ExecutionDeps = {
    venue,
    registry,
    signer,
    partyId,
    clock,
    observer: emit,
    verifier,
    credentials,
  };
  const settings = o.settings ?? DEFAULT_EXECUTION_SETTINGS;
  const resolver = new UnknownResolver({ ...deps, settings: settings.resolver });
  const cancelPool = new CancelPool({ ...deps, settings: settings.cancel });
  const clientOrderIds = new ClientOrderIdFactory({
    prefix: o.clientOrderIdPrefix,
    clock,
    ...(o.clientOrderIdEntropy === undefined ? {} : { entropy: o.clientOrderIdEntropy }),
  });
  const pipeline = new PlacementPipeline({
    ...deps,
    settings: settings.placement,
    ...(o.policy === undefined ? {} : { policy: o.policy }),
    resolver,
    clientOrderIds,
  });
  const ignored = new IgnoredOrders();
  const unknown = new UnknownOrders({
    registry,
    ignored,
    policy: o.recovery?.unknownOrders ?? 'adopt',
    requestCancel: (order) => void cancelPool.cancel(order.key, { reason: 'unknown-order' }),
    journalLookup: (orderId, coid) =>
      journal.findByOrderId(orderId)?.order ??
      (coid === null ? undefined : journal.findByClientOrderId(coid)?.order),
    emit,
  });
  const poller = new OrdersPoller({
    ...o.ordersPoll,
    client: venue,
    registry,
    clock,
    ignored,
    unknown,
    emit,
    onError: (error) => {
      credentials.failed(error);
      emit({ type: 'poll-failed', poller: 'orders', error, at: clock.now() });
    },
  });
  const tracker = new FillTracker(registry, inventory, emit);
  const evictor =
    evict === null
      ? null
      : new Poller({
          name: 'evict-terminal',
          clock,
          intervalMs: evict.every,
          initialDelayMs: evict.every,
          task: async () => evict.run(),
        });
  const loops = { resolver, cancelPool, pipeline, poller, evictor };
  return { journal, registry, inventory, tracker, ignored, unknown, ...loops };
}

/**
 * The shutdown sequence: placements, cancels, loops, journal — in that order, under ONE deadline
 * `drainMs` from the call (each step gets what is left of it, so the whole close stays within the
 * bound its caller budgeted, e.g. the daemon's `shutdown.graceMs`). The cancel pool drains last:
 * cancels already submitted run to their confirmation within what is left.
 */
export async function closeEngine(p: EngineParts, options: CloseOptions, clock: Clock): Promise<void> {
  const deadline = clock.now() + (options.drainMs ?? 150_000);
  const left = (): number => Math.max(0, deadline - clock.now());
  try {
    await p.pipeline.close({ drainMs: left() });
    if (options.cancelAll === true) {
      const bound = timeoutSignal(clock, left());
      try {
        await raceSignal(cancelEverything(p, 'shutdown'), bound.signal);
      } finally {
        bound.dispose();
      }
    }
    await p.poller.close();
    await p.evictor?.close();
    await p.resolver.close();
    await p.cancelPool.close({ drainMs: left() });
  } finally {
    p.tracker.detach();
    p.journal.close();
  }
}

/** Cancels every active order held (adopted ones included), at the cancel pool's top priority. */
export function cancelEverything(p: EngineParts, reason: string): Promise<CancelOutcome[]> {
  return Promise.all(p.registry.active().map((o) => p.cancelPool.cancel(o.key, { priority: 10, reason })));
}
