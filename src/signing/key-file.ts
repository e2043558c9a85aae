/**
 * Signing key files: reading (with the permission check), parsing and writing.
 *
 * Accepted contents, surrounding whitespace and inner newlines tolerated:
 * - a 32-byte Ed25519 seed (the RFC 8032 secret key), hex or base64;
 * - a 64-byte secret `seed ‖ public key` (libsodium / NaCl layout), hex or base64; the public
 *   half must be the seed's public key;
 * - an unencrypted PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`) of an Ed25519 key
 *   (OID 1.3.101.112), as written by OpenSSL and node:crypto.
 *
 * Every refusal is a {@link KeyFileError} naming the file and the reason, never the contents.
 */
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { ED25519_PUBLIC_KEY_LENGTH, ED25519_SEED_LENGTH, ed25519PublicKey } from './ed25519.js';
import { bytesEqual, decodeBase64Strict, decodeHexStrict, encodeBase64, encodeHex } from './encoding.js';
import { KeyFileError } from './key-file-error.js';
import { PKCS8_PEM_LABEL, decodePkcs8, derToPem, encodePkcs8, pemToDer } from './pkcs8.js';

/** The encodings a key file can be written in. Reading detects the encoding itself. */
export type KeyFileFormat = 'hex' | 'base64' | 'pem';

/** Every {@link KeyFileFormat}, for argument validation. */
export const KEY_FILE_FORMATS: readonly KeyFileFormat[] = ['hex', 'base64', 'pem'];

/** Permission bits that must be clear on a key file: any access by group or others. */
export const INSECURE_MODE_BITS = 0o077;

/** No accepted key file comes close; a larger file is certainly something else. */
const MAX_KEY_FILE_BYTES = 16 * 1024;

/** Options for {@link readKeyFile}. */
export interface ReadKeyFileOptions {
  /** Accept a file that group or others can access. Default false. */
  allowInsecureKeyFile?: boolean;
}

const EXPECTED =
  'expected a 32-byte Ed25519 seed or a 64-byte seed‖public key, in hex or base64, ' +
  'or an unencrypted PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----")';

function invalid(path: string, reason: string): KeyFileError {
  return new KeyFileError('KEY_FILE_INVALID', path, reason);
}

/** Checks a raw 32- or 64-byte secret and returns a fresh copy of the seed. Zeroes `bytes`. */
function seedFromSecretBytes(bytes: Uint8Array, path: string, encoding: string): Uint8Array {
  try {
    if (bytes.length === ED25519_SEED_LENGTH) return bytes.slice();
    if (bytes.length === ED25519_SEED_LENGTH + ED25519_PUBLIC_KEY_LENGTH) {
      const seed = bytes.slice(0, ED25519_SEED_LENGTH);
      if (!bytesEqual(ed25519PublicKey(seed), bytes.subarray(ED25519_SEED_LENGTH))) {
        seed.fill(0);
        throw new KeyFileError(
          'KEY_FILE_KEY_MISMATCH',
          path,
          `the 64-byte ${encoding} key's public half is not the public key of its seed ` +
            '(a truncated or expanded secret, or halves from different keys); refusing it',
        );
      }
      return seed;
    }
    throw invalid(path, `${encoding} content decodes to ${bytes.length} bytes; ${EXPECTED}`);
  } finally {
    bytes.fill(0);
  }
}

function seedFromPem(text: string, path: string): Uint8Array {
  const pem = pemToDer(text);
  if (!pem.ok) throw invalid(path, `${pem.reason}; ${EXPECTED}`);
  try {
    if (pem.label === 'ENCRYPTED PRIVATE KEY') {
      throw invalid(path, 'encrypted PKCS#8 is not supported; store the key unencrypted with mode 0600');
    }
    if (pem.label !== PKCS8_PEM_LABEL) {
      throw invalid(path, `PEM "${pem.label}" is not supported; ${EXPECTED}`);
    }
    const key = decodePkcs8(pem.der);
    if (!key.ok) throw invalid(path, `not an Ed25519 PKCS#8 key: ${key.reason}`);
    if (key.publicKey !== undefined && !bytesEqual(ed25519PublicKey(key.seed), key.publicKey)) {
      key.seed.fill(0);
      throw new KeyFileError(
        'KEY_FILE_KEY_MISMATCH',
        path,
        'the PKCS#8 key embeds a public key that is not the public key of its seed; refusing it',
      );
    }
    return key.seed;
  } finally {
    pem.der.fill(0);
  }
}

/**
 * Parses key file contents to the 32-byte Ed25519 seed. `path` is only used in error messages.
 * @throws KeyFileError (`KEY_FILE_INVALID`, `KEY_FILE_KEY_MISMATCH`).
 */
export function parseKeyFile(text: string, path: string): Uint8Array {
  const trimmed = text.trim();
  if (trimmed.length === 0) throw invalid(path, `the file is empty; ${EXPECTED}`);
  const seed = trimmed.startsWith('-----') ? seedFromPem(trimmed, path) : seedFromEncoded(trimmed, path);
  if (seed.every((b) => b === 0)) {
    throw invalid(path, 'the seed is all zeros, which is a placeholder, not a key');
  }
  return seed;
}

function seedFromEncoded(trimmed: string, path: string): Uint8Array {
  const compact = trimmed.replace(/\s+/g, '');
  const hex = decodeHexStrict(compact);
  if (hex !== undefined) {
    // 64 or 128 hex digits are never also a 32/64-byte base64 string, so hex wins when it fits.
    if (hex.length === ED25519_SEED_LENGTH || hex.length === ED25519_SEED_LENGTH * 2) {
      return seedFromSecretBytes(hex, path, 'hex');
    }
    hex.fill(0);
  }
  const b64 = decodeBase64Strict(compact);
  if (b64 !== undefined) return seedFromSecretBytes(b64, path, 'base64');
  if (hex !== undefined) {
    throw invalid(path, `hex content decodes to ${hex.length} bytes; ${EXPECTED}`);
  }
  throw invalid(path, `the content is neither hex, base64 nor PEM; ${EXPECTED}`);
}

/** Octal mode for messages, e.g. `0644`. */
function octalMode(mode: number): string {
  return '0' + (mode & 0o777).toString(8).padStart(3, '0');
}

function fsReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'does not exist';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory, not a key file';
    default:
      return `cannot be read (${code ?? 'unknown error'})`;
  }
}

/**
 * Reads a key file and returns its 32-byte Ed25519 seed. The caller owns (and should zero) it.
 * An empty path (the config's "not configured") is refused as `KEY_FILE_UNREADABLE`.
 * Refuses, before reading the contents, a file that is not regular, is larger than any key
 * file, or (on POSIX) is accessible by group or others unless `allowInsecureKeyFile`.
 * @throws KeyFileError.
 */
export function readKeyFile(path: string, options: ReadKeyFileOptions = {}): Uint8Array {
  if (path === '') {
    throw new KeyFileError('KEY_FILE_UNREADABLE', path, 'no signing key file is configured');
  }
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw new KeyFileError('KEY_FILE_UNREADABLE', path, fsReason(err));
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new KeyFileError('KEY_FILE_UNREADABLE', path, 'is not a regular file');
    if (
      process.platform !== 'win32' &&
      (stat.mode & INSECURE_MODE_BITS) !== 0 &&
      options.allowInsecureKeyFile !== true
    ) {
      throw new KeyFileError(
        'KEY_FILE_INSECURE_PERMISSIONS',
        path,
        `mode ${octalMode(stat.mode)} lets group or others access the signing key; ` +
          `run \`chmod 600 ${path}\` (or set allowInsecureKeyFile to accept it)`,
      );
    }
    if (stat.size > MAX_KEY_FILE_BYTES) {
      throw invalid(path, `the file is ${stat.size} bytes, too large to be a key file; ${EXPECTED}`);
    }
    let raw: Buffer;
    try {
      raw = readFileSync(fd);
    } catch (err) {
      throw new KeyFileError('KEY_FILE_UNREADABLE', path, fsReason(err));
    }
    const text = raw.toString('utf8');
    raw.fill(0);
    return parseKeyFile(text, path);
  } finally {
    closeSync(fd);
  }
}

/** The contents of a key file holding `seed` in `format`, newline-terminated. */
export function formatKeyFile(seed: Uint8Array, format: KeyFileFormat): string {
  if (seed.length !== ED25519_SEED_LENGTH) throw new TypeError('an Ed25519 seed is 32 bytes');
  switch (format) {
    case 'hex':
      return encodeHex(seed) + '\n';
    case 'base64':
      return encodeBase64(seed) + '\n';
    case 'pem': {
      const der = encodePkcs8(seed);
      try {
        return derToPem(der, PKCS8_PEM_LABEL);
      } finally {
        der.fill(0);
      }
    }
    default: {
      const never: never = format;
      throw new TypeError(`unknown key file format ${String(never)}`);
    }
  }
}
