/**
 * A party's standing in the firm: in, or out for a stated reason until it may come back. Each
 * change is announced once as a `party-state` event, so an operator sees every drop-out and every
 * return, and never the same one twice.
 *
 * | what happened                             | out until                                          |
 * |-------------------------------------------|----------------------------------------------------|
 * | a placement refused for the party's key   | `dropoutMs` has passed                             |
 * | a placement refused for its account       | `dropoutMs` has passed                             |
 * | a placement refused for funds             | `dropoutMs` has passed, or a newer balances read   |
 * | an account read that is not ACTIVE        | an account read that is ACTIVE                     |
 *
 * A party already out stays out for its first reason (a later refusal is counted, not announced),
 * except that an account read that is not ACTIVE replaces it.
 */
import { isAccountFailure, isCredentialFailure } from '../../venue/errors.js';
import type { PartyStateEvent } from '../engine-types.js';
import type { PlacementOutcome } from '../execution-events.js';

/** Why a party is out, and what brings it back. */
interface Out {
  readonly until: number;
  readonly reason: string;
  /** The party's last balances read when it went out for funds: a newer one brings it back. */
  readonly untilPoll: number | null;
  /** Out until an account read shows it ACTIVE again. */
  readonly untilActive?: true;
}

/** What a placement's outcome meant for the party's counts. */
export type OutcomeCount = 'placed' | 'refused' | null;

/** See the module doc. */
export class PartyStanding {
  private out: Out | null = null;

  constructor(
    private readonly party: string,
    private readonly o: { readonly dropoutMs: number; readonly emit: (event: PartyStateEvent) => void },
  ) {}

  /** Whether the party may take placements now (call {@link readmit} first). */
  get active(): boolean {
    return this.out === null;
  }

  /** Why it is out; null while it is in. */
  get reason(): string | null {
    return this.out?.reason ?? null;
  }

  /**
   * The outcome of a placement the party took, at `now`; `lastPollAt` is when its balances were
   * last read (null: never). A refusal of its key, account or funds takes it out.
   */
  observe(outcome: PlacementOutcome, now: number, lastPollAt: number | null): OutcomeCount {
    if (outcome.kind === 'placed' || outcome.kind === 'ended') return 'placed';
    let reason: string | null = null;
    let untilPoll: number | null = null;
    if (outcome.kind === 'refused' && isCredentialFailure(outcome.code))
      reason = `API key refused (${outcome.code})`;
    else if (outcome.kind === 'refused' && isAccountFailure(outcome.code))
      reason = `account cannot trade (${outcome.code})`;
    else if (outcome.kind === 'insufficient-balance') {
      reason = 'out of funds for a placement';
      untilPoll = lastPollAt ?? 0;
    }
    if (reason === null) return null;
    if (this.out === null) this.goOut({ until: now + this.o.dropoutMs, reason, untilPoll }, now);
    return 'refused';
  }

  /**
   * A read of the party's account: not ACTIVE takes it out until a read shows it ACTIVE again
   * (its orders are still managed and cancelled through it); ACTIVE brings back a party that is
   * out for its account.
   */
  accountRead(status: string, now: number): void {
    if (status === 'ACTIVE') {
      if (this.out?.untilActive === true) this.comeBack(now);
      return;
    }
    const reason = `account ${status}`;
    if (this.out?.untilActive === true && this.out.reason === reason) return;
    this.goOut({ until: Number.POSITIVE_INFINITY, reason, untilPoll: null, untilActive: true }, now);
  }

  /** Brings the party back once its time out is over or (out for funds) its balances were read again. */
  readmit(now: number, lastPollAt: number | null): void {
    if (this.out === null) return;
    const polledSince = this.out.untilPoll !== null && (lastPollAt ?? 0) > this.out.untilPoll;
    if (now < this.out.until && !polledSince) return;
    this.comeBack(now);
  }

  private goOut(out: Out, now: number): void {
    this.out = out;
    this.o.emit({ type: 'party-state', party: this.party, active: false, reason: out.reason, at: now });
  }

  private comeBack(now: number): void {
    this.out = null;
    this.o.emit({ type: 'party-state', party: this.party, active: true, reason: null, at: now });
  }
}
