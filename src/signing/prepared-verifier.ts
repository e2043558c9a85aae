/**
 * Clear signing: before a prepared hash is signed, the prepared transaction that came with it is
 * decoded, its hash recomputed under the scheme the envelope names, and what it does compared
 * with what was asked. The echo of the order in the prepare response is only the venue's claim;
 * the hash is what gets signed, and this is the check that ties the two together.
 *
 * Policy (`signing.verifyPrepared`):
 * - `off`: nothing is checked here (the echo check alone decides);
 * - `if-present` (default): a transaction in the envelope is verified and any difference refuses
 *   the signature; an absent transaction, an unknown hashing scheme or a template the map cannot
 *   read leave the echo check to decide, with a warning the first time each happens;
 * - `required`: a hash that could not be verified, for whatever reason, is never signed.
 */
import type { PreparedTransaction } from './canton-hash.js';
import { decodePrepared, hashPrepared, hashingSchemeOf } from './canton-hash.js';
import { bytesEqual, decodeBase64Strict, encodeBase64 } from './encoding.js';
import { foreignAuthorisers, preparedDiffs, type PreparedExpectation } from './prepared-checks.js';
import { DEFAULT_TEMPLATE_MAP, type TemplateMap } from './template-map.js';

/** The values of `signing.verifyPrepared`. */
export const VERIFY_PREPARED_POLICIES = ['off', 'if-present', 'required'] as const;
export type VerifyPreparedPolicy = (typeof VERIFY_PREPARED_POLICIES)[number];

/**
 * Where the transaction may sit in the signing envelope, tried in order (dotted paths from the
 * envelope). Canton's prepare response calls it `preparedTransaction`; the venue nests its
 * prepare result under `prepared`.
 */
export const DEFAULT_TRANSACTION_PATHS: readonly string[] = [
  'prepared.preparedTransaction',
  'prepared.prepared_transaction',
  'prepared.transaction',
  'preparedTransaction',
  'prepared_transaction',
  'prepared',
];

/** The part of a signing envelope the verifier reads. */
export interface PreparedEnvelope {
  readonly preparedTransactionHash: string;
  readonly hashingSchemeVersion: string;
  readonly [field: string]: unknown;
}

/** Why a hash was let through to the echo check without a verification. */
export type UnverifiedReason = 'off' | 'absent' | 'unknown-scheme' | 'unreadable';

/** The verdict on one envelope. */
export type PreparedVerdict =
  | { readonly kind: 'verified' }
  | { readonly kind: 'refused'; readonly diffs: readonly string[] }
  | {
      readonly kind: 'unverified';
      readonly reason: UnverifiedReason;
      readonly detail: string;
      /** True the first time this reason is seen: the caller warns once. */
      readonly warn: boolean;
    };

/** Options of {@link PreparedVerifier}. */
export interface PreparedVerifierOptions {
  readonly policy: VerifyPreparedPolicy;
  /** The account's own party: the only one that may authorise or act. */
  readonly partyId: string;
  readonly template?: TemplateMap;
  readonly transactionPaths?: readonly string[];
}

/** Config `signing`'s verification keys, as the engine takes them. */
export type PreparedVerification = Omit<PreparedVerifierOptions, 'partyId'>;

function valueAt(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null || !Object.hasOwn(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** Verifies prepared transactions for one party. See the module doc. */
export class PreparedVerifier {
  readonly policy: VerifyPreparedPolicy;
  private readonly partyId: string;
  private readonly template: TemplateMap;
  private readonly paths: readonly string[];
  private readonly warned = new Set<UnverifiedReason>();

  constructor(options: PreparedVerifierOptions) {
    this.policy = options.policy;
    this.partyId = options.partyId;
    this.template = options.template ?? DEFAULT_TEMPLATE_MAP;
    this.paths = options.transactionPaths ?? DEFAULT_TRANSACTION_PATHS;
    if (this.paths.length === 0) throw new RangeError('signing: at least one prepared transaction path');
  }

  /** The base64 transaction of the envelope (the first configured path holding text), or null. */
  transactionOf(envelope: PreparedEnvelope): string | null {
    for (const path of this.paths) {
      const v = valueAt(envelope, path);
      if (typeof v === 'string' && v !== '') return v;
    }
    return null;
  }

  /** Checks `envelope` against `expected` under the policy. Never rejects. */
  async verify(envelope: PreparedEnvelope, expected: PreparedExpectation): Promise<PreparedVerdict> {
    if (this.policy === 'off')
      return { kind: 'unverified', reason: 'off', detail: 'policy off', warn: false };
    const base64 = this.transactionOf(envelope);
    if (base64 === null) {
      return this.unverified('absent', `no prepared transaction in the envelope (${this.paths.join(', ')})`);
    }
    let tx: PreparedTransaction;
    try {
      tx = decodePrepared(base64);
    } catch (err) {
      return { kind: 'refused', diffs: [err instanceof Error ? err.message : String(err)] };
    }
    const diffs: string[] = [];
    const scheme = hashingSchemeOf(envelope.hashingSchemeVersion);
    if (scheme !== null) {
      const given = decodeBase64Strict(envelope.preparedTransactionHash);
      try {
        const computed = await hashPrepared(tx, scheme);
        if (given === undefined || !bytesEqual(given, computed)) {
          diffs.push(
            `preparedTransactionHash ${envelope.preparedTransactionHash} ≠ ${encodeBase64(computed)}, ` +
              `the ${scheme} hash of the prepared transaction`,
          );
        }
      } catch (err) {
        diffs.push(
          `the prepared transaction cannot be hashed: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
    diffs.push(...foreignAuthorisers(tx, this.partyId));
    const content = preparedDiffs(tx, expected, this.template);
    diffs.push(...content.mismatch);
    if (diffs.length > 0) return { kind: 'refused', diffs };
    if (scheme === null) {
      return this.unverified(
        'unknown-scheme',
        `hashingSchemeVersion ${envelope.hashingSchemeVersion} cannot be recomputed`,
      );
    }
    if (content.unreadable.length > 0) return this.unverified('unreadable', content.unreadable.join('; '));
    return { kind: 'verified' };
  }

  /** Refused under `required`; under `if-present`, left to the echo check (warned once). */
  private unverified(reason: UnverifiedReason, detail: string): PreparedVerdict {
    if (this.policy === 'required') return { kind: 'refused', diffs: [detail] };
    const warn = !this.warned.has(reason);
    this.warned.add(reason);
    return { kind: 'unverified', reason, detail, warn };
  }
}
