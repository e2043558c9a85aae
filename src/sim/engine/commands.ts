/**
 * Prepared ledger commands (a placement or a cancel) awaiting signature and submission.
 *
 * Two deadlines, as in the contract: the prepared transaction is cached for `preparedTtlMs`
 * (5 min; a submission after it answers 410 CACHE_EXPIRED) and the submitToken lives for
 * `submitTokenTtlMs` (20 min; after it the token is unknown to the host, which answers its one
 * generic 502). With the default lifetimes a submission between 5 and 20 minutes gets 410 and
 * one after 20 minutes gets 502.
 */
export interface PreparedCommand {
  kind: 'place' | 'cancel';
  commandId: string;
  submitToken: string;
  /**
   * The 32 bytes the client signs: the V2 hash of {@link preparedTransaction} once sealed
   * (`prepared-transaction.ts`), seeded bytes before.
   */
  hash: Uint8Array;
  hashB64: string;
  hashingSchemeVersion: string;
  /**
   * The Canton `PreparedTransaction`, base64 protobuf; null until sealed and again once the
   * command has left `prepared` (see {@link CommandStore.setState}).
   */
  preparedTransaction: string | null;
  partyId: string;
  orderId: string;
  /** For a cancel: the contract the cancel archives. */
  contractId: string | null;
  /** For a cancel: the free-text reason, recorded for audit. */
  reason: string | null;
  preparedAt: number;
  cacheExpiresAt: number;
  tokenExpiresAt: number;
  /**
   * prepared → submitted (accepted by the host) → committed | failed; prepared → expired when
   * never submitted before the cache deadline.
   */
  state: 'prepared' | 'submitted' | 'committed' | 'failed' | 'expired';
  /** True once the host dispatched it to the ledger (a commit timer exists). */
  commitScheduled: boolean;
}

/** Prepared commands by command id and by submit token. */
export class CommandStore {
  private readonly byCommand = new Map<string, PreparedCommand>();
  private readonly byToken = new Map<string, PreparedCommand>();
  private readonly awaiting = new Set<PreparedCommand>();

  add(cmd: PreparedCommand): void {
    this.byCommand.set(cmd.commandId, cmd);
    this.byToken.set(cmd.submitToken, cmd);
  }

  get(commandId: string): PreparedCommand | undefined {
    return this.byCommand.get(commandId);
  }

  byTokenValue(token: string): PreparedCommand | undefined {
    return this.byToken.get(token);
  }

  /**
   * Moves a command to `state`, keeping the index of placements awaiting confirmation. A command
   * that leaves `prepared` drops its prepared transaction: only a prepared command's envelope is
   * ever served again (a replay of its clientOrderId), and the base64 protobuf (about 1.5 KiB)
   * would otherwise stay for the command's whole retention (80 minutes in paper mode, about
   * 3.6 MiB of a paper session's heap).
   */
  setState(cmd: PreparedCommand, state: PreparedCommand['state']): void {
    cmd.state = state;
    if (state !== 'prepared') cmd.preparedTransaction = null;
    if (state === 'submitted' && cmd.kind === 'place') this.awaiting.add(cmd);
    else this.awaiting.delete(cmd);
  }

  /** Placements of `partyId` accepted by the host and not yet committed or failed. */
  awaitingPlacements(partyId: string): PreparedCommand[] {
    return [...this.awaiting].filter((c) => c.partyId === partyId);
  }

  all(): PreparedCommand[] {
    return [...this.byCommand.values()];
  }

  /**
   * Forgets the commands whose submitToken expired before `cutoff` and that no commit awaits
   * (any state but `submitted`). Returns how many. See `HistoryRetention`.
   */
  forgetSettled(cutoff: number): number {
    let forgotten = 0;
    for (const cmd of this.byCommand.values()) {
      if (cmd.tokenExpiresAt >= cutoff || cmd.state === 'submitted') continue;
      this.byCommand.delete(cmd.commandId);
      this.byToken.delete(cmd.submitToken);
      this.awaiting.delete(cmd);
      forgotten += 1;
    }
    return forgotten;
  }
}
