/**
 * Ed25519 on the simulated venue's side: a public key in either form the submission host accepts
 * (raw 32 bytes or SPKI DER, base64) reduced to raw, and the check of a submission's signature
 * over exactly the prepared hash bytes (never throws; a bad key or signature is just false).
 * Account registration and the submission flow use it.
 */
import { type KeyObject, createPublicKey, verify } from 'node:crypto';

/** The DER prefix of an Ed25519 SubjectPublicKeyInfo; the raw 32-byte key follows it. */
export const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * Normalises an Ed25519 public key given as base64 of either the raw 32 bytes or the 44-byte
 * SPKI DER (the two forms the submission host accepts). Returns the raw key, or null when the
 * text is neither.
 */
export function publicKeyToRaw(base64: string): Uint8Array | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return null;
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 32) return new Uint8Array(bytes);
  if (bytes.length === 44 && bytes.subarray(0, 12).equals(ED25519_SPKI_PREFIX)) {
    return new Uint8Array(bytes.subarray(12));
  }
  return null;
}

/** The SPKI DER of a raw Ed25519 public key. */
export function rawToSpki(raw: Uint8Array): Buffer {
  return Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(raw)]);
}

/**
 * Verifies an Ed25519 signature over exactly `message` (the cached hash bytes: no re-hashing,
 * no prefix). Never throws: malformed keys or signatures verify as false.
 */
export function verifyEd25519(publicKeyRaw: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (signature.length !== 64) return false;
  try {
    return verify(null, message, publicKeyObject(publicKeyRaw), signature);
  } catch {
    return false;
  }
}

/** Key objects of the raw keys seen lately (a party submits with the same key every time). */
const keyObjects = new Map<string, KeyObject>();
const KEY_CACHE_SIZE = 64;

function publicKeyObject(raw: Uint8Array): KeyObject {
  const id = Buffer.from(raw).toString('base64');
  let key = keyObjects.get(id);
  if (key === undefined) {
    key = createPublicKey({ key: rawToSpki(raw), format: 'der', type: 'spki' });
    if (keyObjects.size >= KEY_CACHE_SIZE) keyObjects.clear();
    keyObjects.set(id, key);
  }
  return key;
}

/** Strict base64 decode: null for text that is not base64. */
export function decodeBase64(text: string): Uint8Array | null {
  if (text.length === 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return null;
  return new Uint8Array(Buffer.from(text, 'base64'));
}
