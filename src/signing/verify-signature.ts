/** Signature verification as the submission host does it (the simulator and tests use this). */
import { ed25519Verify } from './ed25519.js';
import { decodeBase64Strict } from './encoding.js';
import { parsePublicKey } from './public-key.js';

/** A submission's signature, as base64 fields of the submission body. */
export interface SignatureCheck {
  /** The public key, base64, raw or SPKI. */
  publicKey: string;
  /** The `prepared.preparedTransactionHash`, base64; its decoded bytes are the signed message. */
  preparedTransactionHash: string;
  /** The signature, base64. */
  signature: string;
}

/**
 * True when `signature` is a valid Ed25519 signature by `publicKey` over the raw bytes of the
 * base64-decoded `preparedTransactionHash` (strict RFC 8032 verification). Never throws: any
 * malformed field yields false.
 */
export function verifySignature(check: SignatureCheck): boolean {
  const message = decodeBase64Strict(check.preparedTransactionHash);
  const signature = decodeBase64Strict(check.signature);
  if (message === undefined || signature === undefined) return false;
  let publicKey: Uint8Array;
  try {
    publicKey = parsePublicKey(check.publicKey);
  } catch {
    return false;
  }
  return ed25519Verify(signature, message, publicKey);
}
