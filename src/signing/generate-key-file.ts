/** Creates a new signing key file, readable by its owner only (used by `ledger-mm keygen`). */
import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ed25519PublicKey, randomEd25519Seed } from './ed25519.js';
import { bytesEqual } from './encoding.js';
import { KeyFileError } from './key-file-error.js';
import { formatKeyFile, readKeyFile, type KeyFileFormat } from './key-file.js';
import { describePublicKey, type PublicKeyInfo } from './public-key.js';

/** The mode every generated key file has, whatever the umask. */
export const KEY_FILE_MODE = 0o600;

/** Options for {@link generateKeyFile}. */
export interface GenerateKeyFileOptions {
  /** Encoding of the seed in the file. Default `hex`. */
  format?: KeyFileFormat;
  /** Replace an existing file (atomically, via a temporary file and rename). Default false. */
  force?: boolean;
}

/** What was written: the path, the encoding, and the key's public facts. Nothing secret. */
export interface GeneratedKeyFile extends PublicKeyInfo {
  path: string;
  format: KeyFileFormat;
}

function writeReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'the directory does not exist';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    default:
      return `cannot be written (${code ?? 'unknown error'})`;
  }
}

/** Creates `path` exclusively with mode 0600 and writes `content` to it. */
function writeExclusive(path: string, content: Buffer, reportPath: string): void {
  let fd: number;
  try {
    fd = openSync(path, 'wx', KEY_FILE_MODE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new KeyFileError('KEY_FILE_EXISTS', reportPath, 'already exists; refusing to overwrite it');
    }
    throw new KeyFileError('KEY_FILE_UNWRITABLE', reportPath, writeReason(err));
  }
  try {
    // The umask may have cleared owner bits (or a non-POSIX mode); set the mode before any secret.
    fchmodSync(fd, KEY_FILE_MODE);
    writeSync(fd, content);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkQuietly(path);
    throw new KeyFileError('KEY_FILE_UNWRITABLE', reportPath, writeReason(err));
  }
  closeSync(fd);
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone, or not ours to remove.
  }
}

/**
 * Generates a fresh Ed25519 key and writes its seed to `path` in `format` with mode 0600.
 * Without `force` the file is created exclusively (`wx`) and an existing file is refused; with
 * `force` a temporary file in the same directory is renamed over it, so the old key is never
 * half-overwritten and the new one never sits in a file with the old file's permissions.
 * The file is read back through the normal loader, so the returned public facts are those of
 * the key on disk.
 * @throws KeyFileError (`KEY_FILE_EXISTS`, `KEY_FILE_UNWRITABLE`).
 */
export function generateKeyFile(path: string, options: GenerateKeyFileOptions = {}): GeneratedKeyFile {
  const format = options.format ?? 'hex';
  const seed = randomEd25519Seed();
  const content = Buffer.from(formatKeyFile(seed, format), 'utf8');
  const publicKeyRaw = ed25519PublicKey(seed);
  seed.fill(0);
  try {
    if (options.force === true) {
      const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
      writeExclusive(temp, content, path);
      try {
        renameSync(temp, path);
      } catch (err) {
        unlinkQuietly(temp);
        throw new KeyFileError('KEY_FILE_UNWRITABLE', path, writeReason(err));
      }
    } else {
      writeExclusive(path, content, path);
    }
  } finally {
    content.fill(0);
  }

  const written = readKeyFile(path);
  try {
    const onDisk = ed25519PublicKey(written);
    if (!bytesEqual(onDisk, publicKeyRaw)) {
      throw new KeyFileError(
        'KEY_FILE_UNWRITABLE',
        path,
        'the file read back does not hold the generated key',
      );
    }
    return { path, format, ...describePublicKey(onDisk) };
  } finally {
    written.fill(0);
  }
}
