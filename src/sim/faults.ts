/**
 * Fault injection into the simulated venue: the fault specs (validated with zod) and the
 * {@link FaultInjector}, which the router asks on every call what fires. A fault fires on calls
 * of one endpoint kind, either scheduled (from the `at`-th call of that kind, for `times`
 * consecutive calls) or by `probability` per call (from the `at`-th, at most `times` times), and
 * every firing is logged as a `fault` event and on the call record. Kinds:
 *
 * - `error`: answer `status` (5xx) instead of the real answer. With `effect` the request is
 *   processed first (a prepare creates its order, a submit dispatches its commit), without it
 *   nothing happens. `nonJson` makes the body an HTML page, as a proxy would send.
 * - `hang`: never answer until the client goes away (or `hangMs` passes); `effect` as above.
 * - `rate-limit`: 429 RATE_LIMITED without processing (a burst: use `times`).
 * - `latency-spike`: `extraMs` more latency, the call otherwise normal.
 * - `no-commit`: on submit, a normal 200 but the transaction never reaches the ledger.
 * - `stale-book`: the book projection stops refreshing for `durationMs` (the call is normal).
 * - `tamper-prepared`: on a prepare (`prepare` or `cancelPrepare`), the prepared transaction or
 *   its hash lies as `tamper` says (see `engine/prepared-transaction.ts`); the echo is honest.
 *   `price` and `quantity` apply to placements, `other-contract` to cancels.
 */
import { z } from 'zod';
import {
  ENDPOINT_KINDS,
  type CallRecord,
  type EndpointKind,
  type GroundTruth,
} from './truth/ground-truth.js';
import { TAMPER_KINDS, type TamperKind } from './engine/prepared-transaction.js';
import type { Rng } from './rng.js';

const Trigger = {
  id: z.string().min(1).optional(),
  /** The first call (1-based, per endpoint kind) the fault may fire on. */
  at: z.number().int().min(1).optional(),
  /** Chance per eligible call. Default 1. */
  probability: z.number().min(0).max(1).optional(),
  /** Most firings. Default 1 when scheduled by `at` alone, unlimited with a probability. */
  times: z.number().int().min(1).optional(),
};
const Endpoint = z.enum(ENDPOINT_KINDS);

export const FaultSpecSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('error'),
    endpoint: Endpoint,
    status: z.number().int().min(500).max(599).default(500),
    effect: z.boolean().default(false),
    nonJson: z.boolean().default(false),
    ...Trigger,
  }),
  z.strictObject({
    kind: z.literal('hang'),
    endpoint: Endpoint,
    effect: z.boolean().default(false),
    hangMs: z.number().int().min(1).default(600_000),
    ...Trigger,
  }),
  z.strictObject({ kind: z.literal('rate-limit'), endpoint: Endpoint, ...Trigger }),
  z.strictObject({
    kind: z.literal('latency-spike'),
    endpoint: Endpoint,
    extraMs: z.number().int().min(0),
    ...Trigger,
  }),
  z.strictObject({
    kind: z.literal('no-commit'),
    endpoint: z.literal('submit').default('submit'),
    ...Trigger,
  }),
  z.strictObject({
    kind: z.literal('stale-book'),
    endpoint: Endpoint.default('orderbook'),
    durationMs: z.number().int().min(1),
    ...Trigger,
  }),
  z
    .strictObject({
      kind: z.literal('tamper-prepared'),
      endpoint: z.enum(['prepare', 'cancelPrepare']).default('prepare'),
      tamper: z.enum(TAMPER_KINDS),
      ...Trigger,
    })
    .refine(
      (f) =>
        f.endpoint === 'prepare'
          ? f.tamper !== 'other-contract'
          : f.tamper !== 'price' && f.tamper !== 'quantity',
      {
        message:
          'price and quantity tamper with placements (prepare), other-contract with cancels (cancelPrepare)',
      },
    ),
]);
/** A fault as configured (defaults applied). */
export type FaultSpec = z.output<typeof FaultSpecSchema>;
/** A fault as written in a config file or passed at runtime. */
export type FaultSpecInput = z.input<typeof FaultSpecSchema>;

/** A fault and how often it fired. */
export interface FaultState {
  id: string;
  spec: FaultSpec;
  fired: number;
}

/** The faults that fire on one call, combined. */
export interface FiredFaults {
  /** The first error/hang/rate-limit fault that fired: it decides the answer. */
  blocking: Extract<FaultSpec, { kind: 'error' | 'hang' | 'rate-limit' }> | null;
  extraMs: number;
  noCommit: boolean;
  staleBookMs: number;
  /** How the prepared transaction lies, when a `tamper-prepared` fault fired. */
  tamper: TamperKind | null;
}

/** The faults of a venue, configured and added at runtime. */
export class FaultInjector {
  private readonly faults: FaultState[] = [];
  private readonly counts = new Map<EndpointKind, number>();
  private nextId = 0;

  constructor(
    specs: readonly FaultSpecInput[],
    private readonly rng: Rng,
    private readonly truth: GroundTruth,
  ) {
    for (const s of specs) this.add(s);
  }

  /** Adds a fault (validated); returns its id. Counting starts from the calls already made. */
  add(input: FaultSpecInput): string {
    const spec = FaultSpecSchema.parse(input);
    const id = spec.id ?? `fault-${++this.nextId}`;
    if (this.faults.some((f) => f.id === id)) throw new RangeError(`duplicate fault id ${id}`);
    this.faults.push({ id, spec, fired: 0 });
    this.truth.event('fault.added', { faultId: id, kind: spec.kind, endpoint: spec.endpoint });
    return id;
  }

  /** Removes a fault; true when it existed. */
  remove(id: string): boolean {
    const i = this.faults.findIndex((f) => f.id === id);
    if (i < 0) return false;
    this.faults.splice(i, 1);
    this.truth.event('fault.removed', { faultId: id });
    return true;
  }

  /** Removes every fault. */
  clear(): void {
    for (const f of [...this.faults]) this.remove(f.id);
  }

  list(): FaultState[] {
    return this.faults.map((f) => ({ id: f.id, spec: { ...f.spec }, fired: f.fired }));
  }

  /** Calls of `endpoint` seen so far. */
  count(endpoint: EndpointKind): number {
    return this.counts.get(endpoint) ?? 0;
  }

  /** Counts one call of `endpoint` and returns what fires on it (logged on `call`). */
  onCall(endpoint: EndpointKind, call: CallRecord): FiredFaults {
    const n = this.count(endpoint) + 1;
    this.counts.set(endpoint, n);
    const out: FiredFaults = { blocking: null, extraMs: 0, noCommit: false, staleBookMs: 0, tamper: null };
    for (const f of this.faults) {
      const s = f.spec;
      if (s.endpoint !== endpoint) continue;
      if (n < (s.at ?? 1)) continue;
      const maxTimes = s.times ?? (s.probability === undefined ? 1 : Infinity);
      if (f.fired >= maxTimes) continue;
      if (s.probability !== undefined && s.probability < 1 && !this.rng.chance(s.probability)) continue;
      if ((s.kind === 'error' || s.kind === 'hang' || s.kind === 'rate-limit') && out.blocking !== null)
        continue;
      f.fired += 1;
      call.faults.push(f.id);
      this.truth.event('fault', { faultId: f.id, kind: s.kind, endpoint, callNumber: n, callId: call.id });
      switch (s.kind) {
        case 'error':
        case 'hang':
        case 'rate-limit':
          out.blocking = s;
          break;
        case 'latency-spike':
          out.extraMs += s.extraMs;
          break;
        case 'no-commit':
          out.noCommit = true;
          break;
        case 'stale-book':
          out.staleBookMs = Math.max(out.staleBookMs, s.durationMs);
          break;
        case 'tamper-prepared':
          out.tamper ??= s.tamper;
          break;
      }
    }
    return out;
  }
}
