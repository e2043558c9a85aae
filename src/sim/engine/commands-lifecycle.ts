/**
 * Creates a prepared command (placement or cancel) with fresh seeded 32 bytes (the node seed of
 * its transaction, see `sealCommand`), a command id and a one-time submitToken, and arms its
 * cache deadline.
 */
import type { PreparedCommand } from './commands.js';
import type { EngineCore } from './engine-core.js';
import { transition } from './orders.js';

/** See the module doc. */
export function createCommand(
  core: EngineCore,
  init: Pick<PreparedCommand, 'kind' | 'partyId' | 'orderId' | 'contractId' | 'reason'>,
): PreparedCommand {
  const now = core.now();
  const hash = core.ids.bytes(32);
  // Every field spelled out, not `{ ...init, … }`: see `OrderStore.create` (one hidden class for
  // all commands instead of one each).
  const cmd: PreparedCommand = {
    kind: init.kind,
    partyId: init.partyId,
    orderId: init.orderId,
    contractId: init.contractId,
    reason: init.reason,
    commandId: core.ids.commandId(),
    submitToken: core.ids.submitToken(),
    hash,
    hashB64: Buffer.from(hash).toString('base64'),
    hashingSchemeVersion: core.settings.hashingSchemeVersion,
    preparedTransaction: null,
    preparedAt: now,
    cacheExpiresAt: now + core.settings.preparedTtlMs,
    tokenExpiresAt: now + core.settings.submitTokenTtlMs,
    state: 'prepared',
    commitScheduled: false,
  };
  core.commands.add(cmd);
  core.timers.after(core.settings.preparedTtlMs, () => onDeadline(core, cmd));
  core.truth.event('command.prepared', {
    kind: cmd.kind,
    commandId: cmd.commandId,
    orderId: cmd.orderId,
    partyId: cmd.partyId,
    contractId: cmd.contractId,
  });
  return cmd;
}

/**
 * The prepared transaction's deadline. Unsubmitted: the prepare is abandoned and expires with
 * no funds committed (a placement's order reads EXPIRED and is never listed). Submitted but
 * never dispatched to the ledger (a lost submission): it can no longer commit, so it fails
 * (a placement reads REJECTED). A dispatched command whose commit lands after the deadline
 * fails then (see commits.ts).
 */
function onDeadline(core: EngineCore, cmd: PreparedCommand): void {
  const now = core.now();
  if (cmd.state === 'prepared') {
    core.commands.setState(cmd, 'expired');
    core.truth.event('command.expired', { kind: cmd.kind, commandId: cmd.commandId, orderId: cmd.orderId });
    if (cmd.kind === 'place') {
      const o = core.orders.get(cmd.orderId);
      if (o && o.status === null) transition(o, now, 'prepare-abandoned', 'EXPIRED');
    }
  } else if (cmd.state === 'submitted' && !cmd.commitScheduled) {
    core.commands.setState(cmd, 'failed');
    core.truth.commit({
      kind: cmd.kind,
      commandId: cmd.commandId,
      orderId: cmd.orderId,
      partyId: cmd.partyId,
      ok: false,
      reason: 'never-confirmed',
    });
    if (cmd.kind === 'place') {
      const o = core.orders.get(cmd.orderId);
      if (o && o.status === null) transition(o, now, 'never-confirmed', 'REJECTED');
    }
  }
}
