/**
 * The ledger's fingerprint of a signing key, and the check that a party id belongs to that key.
 *
 * The ledger hashes the raw public key under hash purpose 12 (a 4-byte big-endian prefix
 * `00 00 00 0c`) with SHA-256 and writes it as a multihash: `12` (sha2-256) `20` (32 bytes)
 * followed by the digest, in hex. An external party's id is `<hint>::<fingerprint of its
 * namespace key>`, which for a party created from the signing key is this fingerprint.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { ED25519_PUBLIC_KEY_LENGTH } from './ed25519.js';
import { encodeHex } from './encoding.js';

/** The multihash prefix of every fingerprint: sha2-256 (`0x12`), 32 bytes (`0x20`). */
export const FINGERPRINT_PREFIX = '1220';

/** Hash purpose "public key fingerprint" (12), 4 bytes big-endian, prepended before hashing. */
const FINGERPRINT_PURPOSE = Uint8Array.of(0x00, 0x00, 0x00, 0x0c);

/** Separator between the hint and the namespace fingerprint in a party id. */
const PARTY_ID_SEPARATOR = '::';

/**
 * The ledger fingerprint of a raw 32-byte Ed25519 public key:
 * `"1220" + hex(sha256(00 00 00 0c ‖ publicKeyRaw))`, lowercase, 68 characters.
 * @throws TypeError when the key is not 32 bytes.
 */
export function ledgerFingerprint(publicKeyRaw: Uint8Array): string {
  if (publicKeyRaw.length !== ED25519_PUBLIC_KEY_LENGTH) {
    throw new TypeError(
      `a raw Ed25519 public key is ${ED25519_PUBLIC_KEY_LENGTH} bytes, got ${publicKeyRaw.length}`,
    );
  }
  const input = new Uint8Array(FINGERPRINT_PURPOSE.length + publicKeyRaw.length);
  input.set(FINGERPRINT_PURPOSE, 0);
  input.set(publicKeyRaw, FINGERPRINT_PURPOSE.length);
  return FINGERPRINT_PREFIX + encodeHex(sha256(input));
}

/**
 * The verdict on whether a party id belongs to the signing key.
 * - `match`: the id is `<hint>::<fingerprint>` and the fingerprint is the signing key's.
 * - `mismatch`: the id has that form but names another key; submissions would be refused.
 * - `unverifiable`: the id is not of that form, so it cannot be checked locally. This is not a
 *   mismatch; the caller decides whether to warn or refuse.
 */
export type PartyIdVerdict =
  | { ok: true; kind: 'match' }
  | { ok: false; kind: 'mismatch'; reason: string; expected: string; actual: string }
  | { ok: false; kind: 'unverifiable'; reason: string };

/**
 * Checks that `partyId` belongs to the key with ledger fingerprint `fingerprint`.
 * The id is checkable when the part after its last `::` starts with `1220`; that part must then
 * equal the fingerprint (hex compared case-insensitively). Fingerprints are public, so the verdict
 * carries them for the report.
 */
export function checkPartyId(partyId: string, fingerprint: string): PartyIdVerdict {
  const at = partyId.lastIndexOf(PARTY_ID_SEPARATOR);
  const suffix = at < 0 ? '' : partyId.slice(at + PARTY_ID_SEPARATOR.length);
  if (!suffix.startsWith(FINGERPRINT_PREFIX)) {
    return {
      ok: false,
      kind: 'unverifiable',
      reason:
        `party id is not of the form <hint>::${FINGERPRINT_PREFIX}<sha256>, so it cannot be checked ` +
        `against the signing key fingerprint ${fingerprint}`,
    };
  }
  if (suffix.toLowerCase() === fingerprint.toLowerCase()) return { ok: true, kind: 'match' };
  return {
    ok: false,
    kind: 'mismatch',
    reason:
      `party id namespace ${suffix} is not the signing key fingerprint ${fingerprint}: ` +
      'the key file is not the key this party was created with',
    expected: fingerprint,
    actual: suffix,
  };
}
