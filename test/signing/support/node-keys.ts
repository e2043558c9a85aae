/** Test helpers that go through node:crypto only, independently of src/signing. */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

/** The v1 Ed25519 PKCS#8 DER prefix (RFC 8410 section 7), written out independently here. */
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** node:crypto key objects for a 32-byte seed. */
export function nodeKeysFromSeed(seed: Uint8Array): { privateKey: KeyObject; publicKey: KeyObject } {
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  return { privateKey, publicKey: createPublicKey(privateKey) };
}

/** The raw 32-byte public key of a node:crypto Ed25519 key object. */
export function nodeRawPublicKey(key: KeyObject): Buffer {
  const jwk = key.export({ format: 'jwk' });
  if (typeof jwk.x !== 'string') throw new Error('not an OKP key');
  return Buffer.from(jwk.x, 'base64url');
}

/** The 32-byte seed of a node:crypto Ed25519 private key object. */
export function nodeSeed(key: KeyObject): Buffer {
  const jwk = key.export({ format: 'jwk' });
  if (typeof jwk.d !== 'string') throw new Error('not a private OKP key');
  return Buffer.from(jwk.d, 'base64url');
}

export const hex = (text: string): Buffer => Buffer.from(text, 'hex');
export const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
export const toB64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');
