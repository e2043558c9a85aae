/**
 * The one place that touches `@noble/ed25519`. Importing this module configures the library's
 * synchronous SHA-512 exactly once (v3 ships without one), so every signing path in the process
 * goes through a configured instance. Other modules call these wrappers, never noble directly.
 */
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';

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

/** Signs `message` (the bytes themselves, RFC 8032 PureEdDSA) with a 32-byte seed. */
export function ed25519Sign(message: Uint8Array, seed: Uint8Array): Uint8Array {
  return ed.sign(message, seed);
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
