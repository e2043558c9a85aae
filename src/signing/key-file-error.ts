/**
 * Why a key file was refused. Every message names the file and the reason and never contains
 * key material: no file contents, no decoded bytes, no fragments of either.
 */
export type KeyFileErrorCode =
  /** Missing, not a regular file, or the process may not read it. */
  | 'KEY_FILE_UNREADABLE'
  /** Readable or writable by group or others, and insecure files are not allowed. */
  | 'KEY_FILE_INSECURE_PERMISSIONS'
  /** Not one of the accepted key formats. */
  | 'KEY_FILE_INVALID'
  /** A 64-byte key whose public half is not the seed's public key. */
  | 'KEY_FILE_KEY_MISMATCH'
  /** Generation refused to overwrite an existing file. */
  | 'KEY_FILE_EXISTS'
  /** Generation could not write the file. */
  | 'KEY_FILE_UNWRITABLE';

/** A key file that could not be read, parsed, trusted or written. Branch on `code`. */
export class KeyFileError extends Error {
  override readonly name = 'KeyFileError';
  /** Machine-readable reason. */
  readonly code: KeyFileErrorCode;
  /** The key file's path as given. */
  readonly path: string;
  /** The human-readable reason, without the path. */
  readonly reason: string;

  constructor(code: KeyFileErrorCode, path: string, reason: string) {
    super(`key file ${path === '' ? '(not configured)' : path}: ${reason}`);
    this.code = code;
    this.path = path;
    this.reason = reason;
  }
}
