/**
 * The unknown-order resolver: {@link UnknownResolver} runs, in the background, one read loop per
 * order whose placement may or may not have committed (UNKNOWN after an ambiguous submit,
 * SUBMITTED whose confirmation was cut short, SUBMITTING orphaned by a previous run), until the
 * venue shows where it stands or the 5-minute rule settles it. It owns those loops; until one
 * ends, the order keeps its slot blocked and counts as exposure. It only reads: nothing is sent
 * again from here.
 */
import type { OrderState } from '../../orders/fsm/index.js';
import type { Backoff } from '../backoff.js';
import { confirmOrder, type ConfirmResult } from './confirm-order.js';
import { DEFAULT_EXECUTION_SETTINGS, type ResolverSettings } from '../execution-settings.js';
import { isAwaitingConfirmation } from '../../orders/fsm/index.js';
import { ExecutionContext, hasCommitEvidence, type ExecutionDeps } from '../execution-context.js';

/** How a tracked order left SUBMITTED/UNKNOWN (or why tracking stopped). */
export type Resolution = { readonly key: string; readonly state: OrderState } & (
  | { readonly kind: 'resting' }
  /** Terminal; `committed` says whether it ever reached the book. */
  | { readonly kind: 'terminal'; readonly committed: boolean }
  /** Settled by the 5-minute rule (NeverCommitted). */
  | { readonly kind: 'never-committed' }
  /** The resolver was closed first; the order is still unresolved (recovery takes it). */
  | { readonly kind: 'closed' }
  /** A registry/journal write failed; an alarm was raised. */
  | { readonly kind: 'error'; readonly error: unknown }
);

/** Options of {@link UnknownResolver}. */
export interface UnknownResolverOptions extends ExecutionDeps {
  /** Default: the engine's defaults (`DEFAULT_EXECUTION_SETTINGS.resolver`). */
  readonly settings?: ResolverSettings;
}

/**
 * Resolves orders whose placement may or may not have committed (UNKNOWN after an ambiguous
 * submit; SUBMITTED whose confirmation was cut short), in the background, one loop per order.
 *
 * Each loop reads `GET /orders/{orderId}` with backoff and applies what it sees: resting →
 * OPEN/PARTIALLY_FILLED, a terminal status → that state. Once the prepared transaction is past
 * its 5-minute lifetime (+ margin), a successful read that still shows nothing committed settles
 * it with NeverCommitted. While a read cannot be made the order stays UNKNOWN — its slot stays
 * blocked and it still counts as exposure — and the loop keeps checking; past the deadline it
 * raises an `unknown-unresolved` alarm once.
 *
 * An orphaned SUBMITTING order (a submission that was in flight when a previous run stopped) is
 * first marked SubmitAmbiguous, since nobody is waiting for that call any more.
 */
export class UnknownResolver {
  private readonly ctx: ExecutionContext;
  private readonly backoff: Backoff;
  private readonly marginMs: number;
  private readonly loops = new Map<string, Promise<Resolution>>();
  private readonly closing = new AbortController();

  constructor(options: UnknownResolverOptions) {
    this.ctx = new ExecutionContext(options);
    const settings = options.settings ?? DEFAULT_EXECUTION_SETTINGS.resolver;
    this.backoff = settings.backoff;
    this.marginMs = settings.marginMs;
  }

  /** Keys being resolved right now. */
  keys(): string[] {
    return [...this.loops.keys()];
  }

  /** True while `key` is being resolved. */
  isTracking(key: string): boolean {
    return this.loops.has(key);
  }

  /**
   * Starts resolving `key` (or joins the loop already running). Resolves when the order left
   * SUBMITTED/UNKNOWN, or with `closed` on {@link close}. Never rejects.
   */
  track(key: string): Promise<Resolution> {
    const running = this.loops.get(key);
    if (running !== undefined) return running;
    const loop = this.run(key);
    this.loops.set(key, loop);
    void loop.finally(() => this.loops.delete(key));
    return loop;
  }

  /** Tracks every order of the registry still awaiting the ledger (e.g. after recovery). */
  trackAll(): Promise<Resolution>[] {
    return this.ctx.registry
      .all({ foreign: false })
      .filter((o) => isAwaitingConfirmation(o.state))
      .map((o) => this.track(o.key));
  }

  /** Stops every loop; pending `track` promises resolve with `closed`. */
  async close(): Promise<void> {
    this.closing.abort();
    await Promise.all([...this.loops.values()]);
  }

  private async run(key: string): Promise<Resolution> {
    const ctx = this.ctx;
    // Let the caller's synchronous code finish before the first registry write of this loop.
    await Promise.resolve();
    try {
      if (this.closing.signal.aborted) return { key, state: ctx.order(key).state, kind: 'closed' };
      // Nothing to resolve (already settled, e.g. by another loop or the poller): report quietly.
      const wasAwaiting = isAwaitingConfirmation(ctx.order(key).state);
      if (ctx.order(key).state === 'SUBMITTING') {
        ctx.apply(key, { type: 'SubmitAmbiguous', code: 'ORPHANED_SUBMISSION', at: ctx.now() });
      }
      const result = await confirmOrder(ctx, key, {
        backoff: this.backoff,
        marginMs: this.marginMs,
        signal: this.closing.signal,
        persist: true,
        onOverdue: () =>
          ctx.alarm(
            'unknown-unresolved',
            key,
            'past the 5-minute deadline and the order still cannot be settled',
          ),
      });
      return this.report(key, result, wasAwaiting);
    } catch (error) {
      ctx.alarm('internal-error', key, `resolver: ${error instanceof Error ? error.message : String(error)}`);
      return { key, state: ctx.registry.get(key)?.state ?? 'UNKNOWN', kind: 'error', error };
    }
  }

  private report(key: string, result: ConfirmResult, announce: boolean): Resolution {
    const state = result.order.state;
    if (result.kind === 'aborted' || result.kind === 'unresolved') return { key, state, kind: 'closed' };
    const resolution =
      result.kind === 'resting'
        ? 'resting'
        : result.kind === 'never-committed' || !hasCommitEvidence(result.order)
          ? 'never-committed'
          : 'terminal';
    if (announce) this.ctx.emit({ type: 'unknown-resolved', key, resolution, state, at: this.ctx.now() });
    if (result.kind === 'resting') return { key, state, kind: 'resting' };
    if (result.kind === 'never-committed') return { key, state, kind: 'never-committed' };
    return { key, state, kind: 'terminal', committed: result.committed };
  }
}
