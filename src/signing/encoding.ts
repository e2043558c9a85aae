/**
 * Strict byte encodings. `Buffer.from(text, 'base64')` silently skips characters it does not
 * know and accepts the URL-safe alphabet, so a corrupted hash would be signed as different
 * bytes; these decoders refuse instead. They return `undefined` rather than throwing so callers
 * choose an error that never echoes the input (which may be key material).
 */

/** Canonical RFC 4648 section 4 base64: standard alphabet, padding required. */
const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const HEX_RE = /^(?:[0-9a-fA-F]{2})*$/;
const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Copies `buf` into a fresh, unpooled Uint8Array and zeroes `buf`. */
function detach(buf: Buffer): Uint8Array {
  const out = new Uint8Array(buf.length);
  out.set(buf);
  buf.fill(0);
  return out;
}

/**
 * Decodes canonical base64 (standard alphabet, `=` padding, zero trailing bits). Returns
 * `undefined` for anything else, including whitespace, the URL-safe alphabet and missing padding.
 */
export function decodeBase64Strict(text: string): Uint8Array | undefined {
  if (!BASE64_RE.test(text)) return undefined;
  // Canonical form: the unused low bits of the last data character before padding are zero.
  if (text.endsWith('==')) {
    if ((BASE64_ALPHABET.indexOf(text.charAt(text.length - 3)) & 0x0f) !== 0) return undefined;
  } else if (text.endsWith('=')) {
    if ((BASE64_ALPHABET.indexOf(text.charAt(text.length - 2)) & 0x03) !== 0) return undefined;
  }
  return detach(Buffer.from(text, 'base64'));
}

/** Decodes hex (either case, even length, no prefix). Returns `undefined` for anything else. */
export function decodeHexStrict(text: string): Uint8Array | undefined {
  if (!HEX_RE.test(text)) return undefined;
  return detach(Buffer.from(text, 'hex'));
}

/** Encodes bytes as standard padded base64. */
export function encodeBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** Encodes bytes as lowercase hex. */
export function encodeHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** Byte-wise equality (not constant-time; use only on public values). */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
