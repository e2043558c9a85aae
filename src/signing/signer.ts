/** The format the public key is exported in: raw 32 bytes, or DER SubjectPublicKeyInfo; both base64. */
export type PublicKeyFormat = 'raw' | 'spki';

/**
 * Signs prepared transactions. The key is built once; `sign` is synchronous and pure CPU.
 * Implementations never log or expose the private key.
 */
export interface Signer {
  /** The public key, base64, in the configured format, as sent in the submission body. */
  readonly publicKey: string;
  /** The raw 32-byte public key. */
  readonly publicKeyRaw: Uint8Array;
  /** The key's ledger fingerprint: `"1220" + hex(sha256(00 00 00 0c ‖ raw public key))`. */
  readonly fingerprint: string;
  /**
   * Signs the raw bytes of a base64 `preparedTransactionHash` (no re-hashing, no prefix, not the
   * base64 text) and returns the signature as base64. Throws on anything but a hash of the
   * configured length (32 bytes by default).
   */
  sign(preparedTransactionHashBase64: string): string;
}
