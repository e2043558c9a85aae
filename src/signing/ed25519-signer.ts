/**
 * The Ed25519 {@link Signer}. The key is built once: the public key, its encodings and its
 * fingerprint are derived at construction, and the seed is imported into Node's crypto (OpenSSL)
 * and then wiped from the signer's copy. The key object lives only in an ES private field, so it
 * is not enumerable, not reachable by `Object.keys`/`JSON.stringify`, and not shown by
 * `util.inspect`, `toString` or `toJSON`.
 */
import { createHash, timingSafeEqual, type KeyObject } from 'node:crypto';
import { inspect } from 'node:util';
import {
  ED25519_SEED_LENGTH,
  ed25519PublicKey,
  ed25519Sign,
  ed25519SignWithKey,
  ed25519SigningKey,
} from './ed25519.js';
import { decodeBase64Strict, encodeBase64 } from './encoding.js';
import { describePublicKey, encodePublicKey, type PublicKeyInfo } from './public-key.js';
import type { PublicKeyFormat, Signer } from './signer.js';

/** What an {@link Ed25519Signer} shows of itself in JSON, logs and `util.inspect`: public facts only. */
export interface SignerPublicInfo extends PublicKeyInfo {
  algorithm: 'ed25519';
  /** The format `publicKey` is sent in. */
  publicKeyFormat: PublicKeyFormat;
}

/** The length of a hash this signer signs unless told otherwise: SHA-256, as Canton's V2 scheme. */
export const DEFAULT_HASH_LENGTH = 32;

/** What the construction self-check signs: any fixed 32 bytes (a prepared hash is 32 bytes). */
const SELF_CHECK_MESSAGE = createHash('sha256').update('ledger-mm ed25519 self-check').digest();

/** An Ed25519 signer over a 32-byte seed. Construct with {@link signerFromSeed} or `loadSigner`. */
export class Ed25519Signer implements Signer {
  readonly #key: KeyObject;
  readonly #publicKeyRaw: Uint8Array;
  readonly #info: SignerPublicInfo;
  readonly #hashLength: number;

  /** The public key, base64, in {@link publicKeyFormat}, as sent in the submission body. */
  readonly publicKey: string;
  /** The format `publicKey` is encoded in. */
  readonly publicKeyFormat: PublicKeyFormat;
  /** The key's ledger fingerprint, `1220…` hex. */
  readonly fingerprint: string;

  /**
   * @param seed The 32-byte RFC 8032 secret key. Not kept; the caller may zero its own copy.
   * @param publicKeyFormat How {@link publicKey} is encoded.
   * @param hashLength The only message length {@link sign} accepts, bytes (config `signing.hashLength`).
   * @throws Error when Node's crypto and noble do not give the same signature for this key
   *   (an OpenSSL without Ed25519, or a broken build): nothing would verify at the venue.
   */
  constructor(seed: Uint8Array, publicKeyFormat: PublicKeyFormat, hashLength = DEFAULT_HASH_LENGTH) {
    if (!(seed instanceof Uint8Array) || seed.length !== ED25519_SEED_LENGTH) {
      throw new TypeError(`an Ed25519 seed is ${ED25519_SEED_LENGTH} bytes`);
    }
    if (publicKeyFormat !== 'raw' && publicKeyFormat !== 'spki') {
      throw new TypeError(`unknown public key format ${String(publicKeyFormat)}`);
    }
    if (!Number.isSafeInteger(hashLength) || hashLength < 0) {
      throw new TypeError(
        `the signed hash length must be a whole number of bytes, not ${String(hashLength)}`,
      );
    }
    // A real copy: Buffer#slice would be a view, and wiping it would wipe the caller's bytes.
    const own = Uint8Array.from(seed);
    try {
      this.#publicKeyRaw = ed25519PublicKey(own);
      this.#key = ed25519SigningKey(own);
      const native = ed25519SignWithKey(SELF_CHECK_MESSAGE, this.#key);
      const reference = ed25519Sign(SELF_CHECK_MESSAGE, own);
      if (native.length !== reference.length || !timingSafeEqual(native, reference)) {
        throw new Error('Ed25519 self-check failed: node:crypto and @noble/ed25519 disagree on a signature');
      }
    } finally {
      own.fill(0);
    }
    const described = describePublicKey(this.#publicKeyRaw);
    this.#info = Object.freeze({ algorithm: 'ed25519', publicKeyFormat, ...described });
    this.publicKeyFormat = publicKeyFormat;
    this.#hashLength = hashLength;
    this.publicKey = encodePublicKey(this.#publicKeyRaw, publicKeyFormat);
    this.fingerprint = described.fingerprint;
    Object.freeze(this);
  }

  /** The raw 32-byte public key (a fresh copy on every read). */
  get publicKeyRaw(): Uint8Array {
    return this.#publicKeyRaw.slice();
  }

  /**
   * Signs the raw bytes of the base64-decoded `preparedTransactionHash`: no re-hashing, no
   * prefix, not the base64 text. Returns the 64-byte signature as base64.
   * @throws TypeError when the argument is not canonical base64 (standard alphabet, padded), or
   *   decodes to anything but the configured hash length (32 bytes unless configured): a prepared
   *   hash is a digest, and anything else is not one.
   */
  sign(preparedTransactionHashBase64: string): string {
    if (typeof preparedTransactionHashBase64 !== 'string') {
      throw new TypeError('preparedTransactionHash must be a base64 string');
    }
    const message = decodeBase64Strict(preparedTransactionHashBase64);
    if (message === undefined) {
      throw new TypeError(
        `preparedTransactionHash is not valid base64 (${preparedTransactionHashBase64.length} characters)`,
      );
    }
    if (message.length !== this.#hashLength) {
      throw new TypeError(
        `refusing to sign ${message.length} bytes: a prepared hash is ${this.#hashLength} bytes`,
      );
    }
    return encodeBase64(ed25519SignWithKey(message, this.#key));
  }

  /** Both public key encodings and the fingerprint, with the algorithm and configured format. */
  publicInfo(): SignerPublicInfo {
    return { ...this.#info };
  }

  /** JSON shows the public info only. */
  toJSON(): SignerPublicInfo {
    return this.publicInfo();
  }

  /** A one-line description with the fingerprint; never key material. */
  toString(): string {
    return `Ed25519Signer(${this.fingerprint})`;
  }

  /** `util.inspect` (and so console.log and most loggers) shows the public info only. */
  [inspect.custom](): string {
    return `Ed25519Signer ${inspect(this.#info)}`;
  }
}

/**
 * Builds a signer from a 32-byte seed (tests, the simulator, and `loadSigner`).
 * The seed is copied.
 */
export function signerFromSeed(
  seed: Uint8Array,
  publicKeyFormat: PublicKeyFormat = 'raw',
  hashLength = DEFAULT_HASH_LENGTH,
): Ed25519Signer {
  return new Ed25519Signer(seed, publicKeyFormat, hashLength);
}
