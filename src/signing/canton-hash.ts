/**
 * Canton's prepared transactions, through the Canton Network's own library
 * (`@canton-network/core-tx-visualizer`, with the protobuf types of `@canton-network/core-ledger-proto`):
 * decoding the base64 protobuf of a prepare response and recomputing its hash. Nothing here hashes
 * by hand; the library implements Canton's hashing scheme V2.
 */
import type { PreparedTransaction } from '@canton-network/core-ledger-proto';
import { decodePreparedTransaction, hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import { decodeBase64Strict } from './encoding.js';
import { withInTurnDigest } from './in-turn-digest.js';

export type { PreparedTransaction } from '@canton-network/core-ledger-proto';

/** The hashing schemes this daemon can recompute. */
export type HashingScheme = 'V2';

/**
 * The wire names of each scheme: Canton's JSON API spells the enum `HASHING_SCHEME_VERSION_V2`;
 * the short form and the enum's number are accepted too.
 */
const SCHEME_NAMES: Readonly<Record<string, HashingScheme>> = {
  HASHING_SCHEME_VERSION_V2: 'V2',
  V2: 'V2',
  '2': 'V2',
};

/** The scheme a `hashingSchemeVersion` names, or null when this daemon cannot recompute it. */
export function hashingSchemeOf(version: string): HashingScheme | null {
  return SCHEME_NAMES[version.trim().toUpperCase()] ?? null;
}

/**
 * Decodes a base64 `PreparedTransaction`. Throws a TypeError on text that is not base64 or bytes
 * that are not the protobuf message.
 */
export function decodePrepared(base64: string): PreparedTransaction {
  if (base64.length === 0 || decodeBase64Strict(base64) === undefined) {
    throw new TypeError(`preparedTransaction is not base64 (${base64.length} characters)`);
  }
  try {
    return decodePreparedTransaction(base64);
  } catch (err) {
    throw new TypeError(
      `preparedTransaction is not a Canton PreparedTransaction: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
}

/**
 * The hash of a prepared transaction under `scheme`, as raw bytes. Settles within the current
 * turn of the event loop (see `in-turn-digest.ts`), so a fake clock does not move meanwhile.
 * Rejects when the library cannot hash the transaction (an unsupported node or value).
 */
export async function hashPrepared(tx: PreparedTransaction, scheme: HashingScheme): Promise<Uint8Array> {
  switch (scheme) {
    case 'V2': {
      const hex = await withInTurnDigest(() => hashPreparedTransaction(tx, 'hex'));
      return new Uint8Array(Buffer.from(hex, 'hex'));
    }
  }
}
