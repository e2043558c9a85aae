/**
 * The Ed25519 primitives, in one place. `@noble/ed25519` derives public keys, decodes and validates
 * points, verifies strictly (the simulator) and is the reference every signing key is checked
 * against; the signing itself runs in Node's crypto (OpenSSL) with the key imported once
 * ({@link ed25519SigningKey}). Other modules call these wrappers, never noble or node:crypto's
 * Ed25519 directly. Importing this module configures noble's synchronous SHA-512 exactly once
 * (v3 ships without one), with Node's native digest.
 *
 * Why two implementations: noble v3's `sign(message, seed)` re-derives the key on every call (a
 * second base-point multiplication) in pure JS, about 0.3 ms a signature here; OpenSSL signs the
 * same bytes in about 0.04 ms. Ed25519 signatures are deterministic, so both must give the same
 * 64 bytes: the signer proves it for its key when it is built, and the tests for the RFC 8032
 * vectors and random keys.
 */
import { createHash, createPrivateKey, sign as opensslSign, type KeyObject } from 'node:crypto';
import * as ed from '@noble/ed25519';

function sha512(message: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash('sha512').update(message).digest());
}

if (ed.hashes.sha512 === undefined) {
  ed.hashes.sha512 = sha512;
}

/** Length in bytes of an Ed25519 seed (the RFC 8032 32-byte secret key). */
export const ED25519_SEED_LENGTH = 32;
/** Length in bytes of a raw Ed25519 public key. */
export const ED25519_PUBLIC_KEY_LENGTH = 32;
/** Length in bytes of an Ed25519 signature. */
export const ED25519_SIGNATURE_LENGTH = 64;

/** Derives the 32-byte public key of a 32-byte RFC 8032 seed. */
export function ed25519PublicKey(seed: Uint8Array): Uint8Array {
  return ed.getPublicKey(seed);
}

/**
 * Signs `message` (the bytes themselves, RFC 8032 PureEdDSA) with a 32-byte seed, in noble: the
 * reference implementation (slow: the key is re-derived on every call).
 */
export function ed25519Sign(message: Uint8Array, seed: Uint8Array): Uint8Array {
  return ed.sign(message, seed);
}

/**
 * Imports a 32-byte seed into Node's crypto as an Ed25519 private key (a JWK with the public key
 * noble derives). The secret then lives in OpenSSL's memory, not in a JS buffer.
 */
export function ed25519SigningKey(seed: Uint8Array): KeyObject {
  const jwk = {
    kty: 'OKP',
    crv: 'Ed25519',
    d: Buffer.from(seed).toString('base64url'),
    x: Buffer.from(ed.getPublicKey(seed)).toString('base64url'),
  };
  return createPrivateKey({ key: jwk, format: 'jwk' });
}

/** Signs `message` (RFC 8032 PureEdDSA, the bytes themselves) with a key from {@link ed25519SigningKey}. */
export function ed25519SignWithKey(message: Uint8Array, key: KeyObject): Uint8Array {
  return new Uint8Array(opensslSign(null, message, key));
}

/**
 * Verifies an Ed25519 signature with the strict RFC 8032 / FIPS 186-5 rules (not ZIP-215).
 * Returns false, never throws, for a malformed signature or public key.
 */
export function ed25519Verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  try {
    return ed.verify(signature, message, publicKey, { zip215: false });
  } catch {
    return false;
  }
}

/** True when `publicKey` is 32 bytes that decode to a point on the curve (RFC 8032 5.1.3). */
export function isValidEd25519PublicKey(publicKey: Uint8Array): boolean {
  if (publicKey.length !== ED25519_PUBLIC_KEY_LENGTH) return false;
  try {
    ed.Point.fromBytes(publicKey, false);
    return true;
  } catch {
    return false;
  }
}

/** A fresh 32-byte seed from the platform CSPRNG (`crypto.getRandomValues`). */
export function randomEd25519Seed(): Uint8Array {
  return ed.utils.randomSecretKey();
}
