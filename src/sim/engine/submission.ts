/**
 * The submission host of the simulated venue, POST {submit_url}: checks a signed placement or
 * cancel against its prepared command (token, the 5-minute cache, echoed ids and hash, the
 * party's registered key, the Ed25519 signature), answers every failure but a malformed body or
 * an expired cache with the same generic 502, and dispatches an accepted command to commit on
 * the ledger after its delay, unless a fault says the host swallowed it.
 */
import type { PreparedCommand } from './commands.js';
import { commitCancel, commitPlacement } from './commits.js';
import type { EngineCore } from './engine-core.js';
import type { SubmitVerdict } from '../truth/ground-truth.js';
import { transition } from './orders.js';
import { decodeBase64, publicKeyToRaw, verifyEd25519 } from './signatures.js';
import { SimError } from './sim-error.js';

/** What the router decides about a submission the host accepts. */
export interface SubmitOptions {
  /**
   * Clock ms from now until the ledger commits a command of `kind` (the submit latency plus the
   * confirmation delay). Called only for an accepted, dispatched submission.
   */
  commitDelayMs: (kind: PreparedCommand['kind']) => number;
  /** False: the host answers as if dispatched but the transaction never reaches the ledger. */
  dispatch: boolean;
}

/** An accepted submission. */
export interface SubmitResult {
  command: PreparedCommand;
  verdict: 'valid';
}

/** The one message of every failed submission: the real host collapses them all into one 502. */
export const GENERIC_SUBMIT_FAILURE = 'Transaction submission failed';

/**
 * A refused submission, with the verdict the ground truth records. `command` is the one the
 * token named, when it named one.
 */
export class SubmitRefused extends SimError {
  constructor(
    readonly verdict: SubmitVerdict,
    readonly command: PreparedCommand | undefined,
    status = 502,
  ) {
    super(
      status,
      status === 410 ? 'CACHE_EXPIRED' : status === 400 ? 'VALIDATION_ERROR' : 'INTERNAL_ERROR',
      status === 410
        ? 'Prepared transaction expired; prepare again'
        : status === 400
          ? `Malformed submission: ${verdict}`
          : GENERIC_SUBMIT_FAILURE,
    );
  }
}

/**
 * POST {submit_url}. Checks, in order: the body's shape (400 VALIDATION_ERROR); the token is
 * known, unexpired (20 min) and unused; the prepared transaction is still cached (5 min, else
 * 410 CACHE_EXPIRED); party, command id, hash and scheme echo the prepared command; the public
 * key (raw or SPKI) is the party's registered key; and the Ed25519 signature verifies over the
 * exact cached hash bytes. Every failure except the shape and the deadline is the same generic
 * 502. On success the token is spent, the command is submitted and — when `dispatch` — the
 * ledger commits it after `commitDelayMs`.
 */
export function submit(core: EngineCore, body: unknown, opts: SubmitOptions): SubmitResult {
  const now = core.now();
  const b = parseBody(body);
  const cmd = core.commands.byTokenValue(b.submitToken);
  if (!cmd) throw new SubmitRefused('unknown-token', undefined);
  if (now >= cmd.tokenExpiresAt) throw new SubmitRefused('token-expired', cmd);
  if (cmd.state === 'expired' || (cmd.state === 'prepared' && now >= cmd.cacheExpiresAt)) {
    throw new SubmitRefused('cache-expired', cmd, 410);
  }
  if (cmd.state !== 'prepared') throw new SubmitRefused('token-used', cmd);
  if (b.partyId !== cmd.partyId) throw new SubmitRefused('party-mismatch', cmd);
  if (b.commandId !== cmd.commandId) throw new SubmitRefused('command-mismatch', cmd);
  const echoed = decodeBase64(b.preparedTransactionHash);
  if (!echoed || Buffer.compare(Buffer.from(echoed), Buffer.from(cmd.hash)) !== 0) {
    throw new SubmitRefused('hash-mismatch', cmd);
  }
  if (b.hashingSchemeVersion !== cmd.hashingSchemeVersion) throw new SubmitRefused('scheme-mismatch', cmd);
  const account = core.accounts.byPartyId(cmd.partyId);
  if (!account?.publicKeyRaw) throw new SubmitRefused('public-key-not-registered', cmd);
  const given = publicKeyToRaw(b.publicKey);
  if (!given || Buffer.compare(Buffer.from(given), Buffer.from(account.publicKeyRaw)) !== 0) {
    throw new SubmitRefused('public-key-mismatch', cmd);
  }
  const signature = decodeBase64(b.signature);
  if (!signature || !verifyEd25519(account.publicKeyRaw, cmd.hash, signature))
    throw new SubmitRefused('bad-signature', cmd);

  core.commands.setState(cmd, 'submitted');
  core.truth.event('command.submitted', {
    kind: cmd.kind,
    commandId: cmd.commandId,
    orderId: cmd.orderId,
    partyId: cmd.partyId,
    dispatched: opts.dispatch,
  });
  if (cmd.kind === 'place') {
    const o = core.orders.get(cmd.orderId);
    if (o) {
      o.submitted = true;
      transition(o, now, 'submitted');
    }
  }
  if (opts.dispatch) dispatch(core, cmd, opts.commitDelayMs(cmd.kind));
  return { command: cmd, verdict: 'valid' };
}

/** Sends a submitted command to the ledger: it commits after `delayMs` (a 0 ms timer at least). */
export function dispatch(core: EngineCore, cmd: PreparedCommand, delayMs: number): void {
  if (cmd.commitScheduled) return;
  cmd.commitScheduled = true;
  core.timers.after(delayMs, () =>
    cmd.kind === 'place' ? commitPlacement(core, cmd) : commitCancel(core, cmd),
  );
}

interface ParsedSubmit {
  partyId: string;
  commandId: string;
  signature: string;
  publicKey: string;
  submitToken: string;
  preparedTransactionHash: string;
  hashingSchemeVersion: string;
}

function parseBody(body: unknown): ParsedSubmit {
  const refuse = (): never => {
    throw new SubmitRefused('malformed', undefined, 400);
  };
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return refuse();
  const b = body as Record<string, unknown>;
  const prepared = b['prepared'];
  if (typeof prepared !== 'object' || prepared === null) return refuse();
  const p = prepared as Record<string, unknown>;
  const fields = {
    partyId: b['partyId'],
    commandId: b['commandId'],
    signature: b['signature'],
    publicKey: b['publicKey'],
    submitToken: b['submitToken'],
    preparedTransactionHash: p['preparedTransactionHash'],
    hashingSchemeVersion: p['hashingSchemeVersion'],
  };
  for (const v of Object.values(fields)) if (typeof v !== 'string' || v === '') return refuse();
  return fields as ParsedSubmit;
}
