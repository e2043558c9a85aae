/**
 * The plumbing the placement pipeline, the cancel pool and the unknown-order resolver share for
 * one party: {@link ExecutionDeps} (venue client, order registry, signer, clock, observer, clear
 * signing verifier, credential backoff) and {@link ExecutionContext}, which applies order events
 * through the registry (the journal writes before each change), times each stage, raises alarms,
 * runs the clear-signing check, signs and builds the submission body. The layer's last step
 * before the venue client.
 */
import type { Clock } from '../core/clock.js';
import { ObserverError, type OrderRegistry, type TransitionRecord } from '../orders/order-registry.js';
import { ZERO } from '../core/decimal.js';
import { IllegalTransitionError, type OrderEvent, type TrackedOrder } from '../orders/fsm/index.js';
import type { PreparedExpectation } from '../signing/prepared-checks.js';
import { PreparedVerifier } from '../signing/prepared-verifier.js';
import { CredentialBackoff } from './credential-backoff.js';
import type { Signer } from '../signing/signer.js';
import type { VenueClient } from '../venue/client.js';
import type { SigningEnvelope, SubmitBody } from '../venue/schemas.js';
import {
  safeEmitter,
  type ExecutionAlarmReason,
  type ExecutionObserver,
  type Stage,
} from './execution-events.js';

/** What the pipeline, the cancel pool and the resolver share. One party, one registry. */
export interface ExecutionDeps {
  readonly venue: VenueClient;
  /** The only writer of order state; its `writeAhead` (the journal) runs before every change. */
  readonly registry: OrderRegistry;
  readonly signer: Signer;
  /** The account's party, sent in every submission body. */
  readonly partyId: string;
  readonly clock: Clock;
  readonly observer?: ExecutionObserver;
  /**
   * Clear signing (config `signing.verifyPrepared` and the template map). Default: policy
   * `if-present` with the simulator's template map. Share one between components so the
   * once-only warnings are once per engine.
   */
  readonly verifier?: PreparedVerifier;
  /**
   * The party's credential state, shared by every component of one engine so that a key refused
   * to one of them slows the authenticated reads of all. Default: one of the component's own.
   */
  readonly credentials?: CredentialBackoff;
}

/**
 * The shared plumbing of the execution layer: tolerant registry writes, stage timing, alarms and
 * the submission body. Not exported from the layer's facade; components build one each.
 */
export class ExecutionContext {
  readonly venue: VenueClient;
  readonly registry: OrderRegistry;
  readonly signer: Signer;
  readonly partyId: string;
  readonly clock: Clock;
  readonly emit: ExecutionObserver;
  readonly verifier: PreparedVerifier;
  readonly credentials: CredentialBackoff;

  constructor(deps: ExecutionDeps) {
    this.venue = deps.venue;
    this.registry = deps.registry;
    this.signer = deps.signer;
    this.partyId = deps.partyId;
    this.clock = deps.clock;
    this.emit = safeEmitter(deps.observer);
    this.verifier = deps.verifier ?? new PreparedVerifier({ policy: 'if-present', partyId: deps.partyId });
    this.credentials = deps.credentials ?? new CredentialBackoff();
  }

  now(): number {
    return this.clock.now();
  }

  /** The order under `key`; throws if the registry does not hold it (a bug: we created it). */
  order(key: string): TrackedOrder {
    const o = this.registry.get(key);
    if (o === undefined) throw new Error(`execution: no tracked order ${key}`);
    return o;
  }

  /**
   * Applies `event` through the registry. Returns null (nothing changed) when the state machine
   * refuses it — another component (the poller) moved the order first; the caller re-reads the
   * state. A journal failure propagates: the caller must then not make the IO that depended on it.
   * An observer failure is reported as an alarm; the change is stored.
   */
  apply(key: string, event: OrderEvent): TransitionRecord | null {
    try {
      return this.registry.apply(key, event);
    } catch (err) {
      if (err instanceof IllegalTransitionError) return null;
      if (err instanceof ObserverError) {
        this.alarm('internal-error', key, `a registry observer threw on ${event.type}`);
        return err.record;
      }
      throw err;
    }
  }

  /** Like {@link apply} but a refusal is a bug here: throws. */
  mustApply(key: string, event: OrderEvent): TransitionRecord {
    const record = this.apply(key, event);
    if (record === null) {
      throw new Error(`execution: ${event.type} refused in state ${this.order(key).state} for ${key}`);
    }
    return record;
  }

  /** Raises an execution alarm (an observer event; a later module maps it to metrics and logs). */
  alarm(reason: ExecutionAlarmReason, key: string | null, detail: string): void {
    this.emit({ type: 'alarm', reason, key, detail, at: this.now() });
  }

  /** Runs `fn` and reports its latency as `stage`; `okOf` returns true, or the failure's code. */
  async timed<T>(
    stage: Stage,
    key: string,
    fn: () => Promise<T>,
    okOf?: (v: T) => boolean | string,
  ): Promise<T> {
    const start = this.now();
    try {
      const v = await fn();
      const verdict = okOf?.(v) ?? true;
      const ok = verdict === true;
      this.emit({
        type: 'stage',
        stage,
        key,
        ms: this.now() - start,
        ok,
        ...(typeof verdict === 'string' ? { code: verdict } : {}),
        at: this.now(),
      });
      return v;
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      this.emit({
        type: 'stage',
        stage,
        key,
        ms: this.now() - start,
        ok: false,
        code: typeof code === 'string' ? code : 'ERROR',
        at: this.now(),
      });
      throw err;
    }
  }

  /**
   * Clear signing, before {@link sign}: checks the envelope's prepared transaction against
   * `expected` under the verifier's policy. Returns null when the hash may be signed, else what
   * differed (one line). A hash left unverified under `if-present` is reported once per reason.
   */
  async verifyPrepared(
    operation: 'place' | 'cancel',
    key: string,
    signing: SigningEnvelope,
    expected: PreparedExpectation,
  ): Promise<string | null> {
    const verdict = await this.verifier.verify(signing, expected);
    if (verdict.kind === 'refused') return `prepared transaction: ${verdict.diffs.join('; ')}`;
    if (verdict.kind === 'unverified' && verdict.warn) {
      const { reason, detail } = verdict;
      this.emit({ type: 'signing-unverified', operation, key, reason, detail, at: this.now() });
    }
    return null;
  }

  /** Signs the prepared hash, reporting the `sign` latency (CPU only, but watched). */
  sign(stage: Stage, key: string, signing: SigningEnvelope): string {
    const start = this.now();
    try {
      const signature = this.signer.sign(signing.preparedTransactionHash);
      this.emit({ type: 'stage', stage, key, ms: this.now() - start, ok: true, at: this.now() });
      return signature;
    } catch (err) {
      this.emit({
        type: 'stage',
        stage,
        key,
        ms: this.now() - start,
        ok: false,
        code: 'SIGN_FAILED',
        at: this.now(),
      });
      throw err;
    }
  }

  /** The submission body: every field echoed verbatim from the envelope. */
  submitBody(signing: SigningEnvelope, signature: string): SubmitBody {
    return {
      partyId: this.partyId,
      commandId: signing.commandId,
      signature,
      publicKey: this.signer.publicKey,
      submitToken: signing.submitToken,
      prepared: {
        preparedTransactionHash: signing.preparedTransactionHash,
        hashingSchemeVersion: signing.hashingSchemeVersion,
      },
    };
  }
}

/** True when the order ever showed it reached the book: a contractId, or a fill. */
export function hasCommitEvidence(order: TrackedOrder): boolean {
  return order.contractIds.length > 0 || order.filled.gt(ZERO);
}
