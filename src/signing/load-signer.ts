/** Builds the daemon's signer from its configured key file. */
import { Ed25519Signer } from './ed25519-signer.js';
import { readKeyFile } from './key-file.js';
import type { PublicKeyFormat } from './signer.js';

/** Where the key is and how the public key is sent. */
export interface LoadSignerOptions {
  /** Path to the key file (see `key-file.ts` for the accepted formats). */
  keyFile: string;
  /** The format the public key is sent in on submission. */
  publicKeyFormat: PublicKeyFormat;
  /** Accept a key file accessible by group or others. Default false. */
  allowInsecureKeyFile?: boolean;
  /** The only hash length the signer signs, bytes. Default 32. */
  hashLength?: number;
}

/**
 * Reads the key file once and returns the signer. Synchronous: it runs once at startup.
 * @throws KeyFileError when the file is missing, insecure, malformed or inconsistent.
 */
export function loadSigner(options: LoadSignerOptions): Ed25519Signer {
  const seed = readKeyFile(options.keyFile, { allowInsecureKeyFile: options.allowInsecureKeyFile ?? false });
  try {
    return new Ed25519Signer(seed, options.publicKeyFormat, options.hashLength);
  } finally {
    seed.fill(0);
  }
}
