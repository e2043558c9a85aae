/**
 * Public key encodings: the raw 32 bytes and DER SubjectPublicKeyInfo (RFC 8410), both carried
 * as base64 in the submission body.
 */
import { ED25519_PUBLIC_KEY_LENGTH, isValidEd25519PublicKey } from './ed25519.js';
import { bytesEqual, decodeBase64Strict, encodeBase64 } from './encoding.js';
import { ledgerFingerprint } from './fingerprint.js';
import type { PublicKeyFormat } from './signer.js';

/**
 * The fixed DER prefix of an Ed25519 SubjectPublicKeyInfo:
 * `SEQUENCE(42) { SEQUENCE(5) { OID 1.3.101.112 } BIT STRING(33) 00 ‖ key }`.
 */
// prettier-ignore
export const ED25519_SPKI_PREFIX: Uint8Array = Uint8Array.of(
  0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00,
);

/** The public facts about a key that onboarding and reports need; nothing secret. */
export interface PublicKeyInfo {
  /** Raw 32-byte public key, base64. */
  raw: string;
  /** DER SubjectPublicKeyInfo, base64. */
  spki: string;
  /** Ledger fingerprint, `1220…` hex. */
  fingerprint: string;
}

function assertRaw(publicKeyRaw: Uint8Array): void {
  if (publicKeyRaw.length !== ED25519_PUBLIC_KEY_LENGTH) {
    throw new TypeError(
      `a raw Ed25519 public key is ${ED25519_PUBLIC_KEY_LENGTH} bytes, got ${publicKeyRaw.length}`,
    );
  }
}

/** The DER SubjectPublicKeyInfo of a raw 32-byte public key (the 12-byte prefix ‖ raw). */
export function publicKeyToSpki(publicKeyRaw: Uint8Array): Uint8Array {
  assertRaw(publicKeyRaw);
  const out = new Uint8Array(ED25519_SPKI_PREFIX.length + ED25519_PUBLIC_KEY_LENGTH);
  out.set(ED25519_SPKI_PREFIX, 0);
  out.set(publicKeyRaw, ED25519_SPKI_PREFIX.length);
  return out;
}

/** Encodes a raw 32-byte public key as base64 in `format` (`raw` or `spki`). */
export function encodePublicKey(publicKeyRaw: Uint8Array, format: PublicKeyFormat): string {
  switch (format) {
    case 'raw':
      assertRaw(publicKeyRaw);
      return encodeBase64(publicKeyRaw);
    case 'spki':
      return encodeBase64(publicKeyToSpki(publicKeyRaw));
    default: {
      const never: never = format;
      throw new TypeError(`unknown public key format ${String(never)}`);
    }
  }
}

/**
 * Parses a base64 public key in either form, raw (32 bytes) or Ed25519 SPKI (44 bytes with the
 * fixed prefix), to the raw 32 bytes. The key must be a valid curve point.
 * @throws TypeError for anything else.
 */
export function parsePublicKey(publicKeyBase64: string): Uint8Array {
  const bytes = decodeBase64Strict(publicKeyBase64);
  if (bytes === undefined) throw new TypeError('public key is not valid base64');
  let raw: Uint8Array;
  if (bytes.length === ED25519_PUBLIC_KEY_LENGTH) {
    raw = bytes;
  } else if (
    bytes.length === ED25519_SPKI_PREFIX.length + ED25519_PUBLIC_KEY_LENGTH &&
    bytesEqual(bytes.subarray(0, ED25519_SPKI_PREFIX.length), ED25519_SPKI_PREFIX)
  ) {
    raw = bytes.slice(ED25519_SPKI_PREFIX.length);
  } else {
    throw new TypeError(
      `public key is neither a raw Ed25519 key (32 bytes) nor an Ed25519 SPKI (44 bytes): got ${bytes.length} bytes`,
    );
  }
  if (!isValidEd25519PublicKey(raw)) throw new TypeError('public key is not a valid Ed25519 point');
  return raw;
}

/** Both encodings and the ledger fingerprint of a raw 32-byte public key. */
export function describePublicKey(publicKeyRaw: Uint8Array): PublicKeyInfo {
  return {
    raw: encodePublicKey(publicKeyRaw, 'raw'),
    spki: encodePublicKey(publicKeyRaw, 'spki'),
    fingerprint: ledgerFingerprint(publicKeyRaw),
  };
}
