/**
 * Ed25519 private keys in PKCS#8 (RFC 5958 OneAsymmetricKey, RFC 8410 algorithm), DER and PEM.
 * A deliberately small DER reader: it accepts exactly the Ed25519 shape (v1, or v2 with the
 * optional public key) and nothing else. Reasons it gives never include key bytes.
 */
import { ED25519_PUBLIC_KEY_LENGTH, ED25519_SEED_LENGTH } from './ed25519.js';
import { bytesEqual, decodeBase64Strict, encodeBase64 } from './encoding.js';

/** The DER prefix of a v1 Ed25519 PKCS#8 key; the 32-byte seed follows. */
// prettier-ignore
const PKCS8_ED25519_V1_PREFIX = Uint8Array.of(
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
);

/** OID 1.3.101.112 (id-Ed25519), content bytes. */
const OID_ED25519 = Uint8Array.of(0x2b, 0x65, 0x70);

const TAG_SEQUENCE = 0x30;
const TAG_INTEGER = 0x02;
const TAG_OCTET_STRING = 0x04;
const TAG_OID = 0x06;
/** `attributes [0] IMPLICIT` (constructed). */
const TAG_ATTRIBUTES = 0xa0;
/** `publicKey [1] IMPLICIT BIT STRING` (primitive). */
const TAG_PUBLIC_KEY = 0x81;

/** The PEM label of an unencrypted PKCS#8 key. */
export const PKCS8_PEM_LABEL = 'PRIVATE KEY';

/** What a PKCS#8 key decodes to: the seed and, for a v2 key, the embedded public key. */
export type Pkcs8Result =
  { ok: true; seed: Uint8Array; publicKey?: Uint8Array } | { ok: false; reason: string };

class DerError extends Error {}

class DerReader {
  private pos = 0;
  constructor(private readonly bytes: Uint8Array) {}

  get done(): boolean {
    return this.pos === this.bytes.length;
  }

  peekTag(): number | undefined {
    return this.bytes[this.pos];
  }

  /** Reads one TLV with tag `tag` and returns its value. */
  read(tag: number, what: string): Uint8Array {
    const actual = this.bytes[this.pos];
    if (actual !== tag) throw new DerError(`expected ${what}`);
    this.pos += 1;
    const first = this.byte();
    let length: number;
    if (first < 0x80) {
      length = first;
    } else if (first === 0x81) {
      length = this.byte();
      if (length < 0x80) throw new DerError('non-minimal DER length');
    } else if (first === 0x82) {
      length = (this.byte() << 8) | this.byte();
      if (length < 0x100) throw new DerError('non-minimal DER length');
    } else {
      throw new DerError('unsupported DER length');
    }
    if (this.pos + length > this.bytes.length) throw new DerError('truncated DER');
    const value = this.bytes.subarray(this.pos, this.pos + length);
    this.pos += length;
    return value;
  }

  private byte(): number {
    const b = this.bytes[this.pos];
    if (b === undefined) throw new DerError('truncated DER');
    this.pos += 1;
    return b;
  }
}

/** Dotted form of an OID's content bytes, for error messages (OIDs are public). */
function oidToString(content: Uint8Array): string {
  const ids: number[] = [];
  let value = 0;
  for (const b of content) {
    value = value * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) {
      ids.push(value);
      value = 0;
    }
  }
  const [first = 0, ...rest] = ids;
  const arc = first < 40 ? 0 : first < 80 ? 1 : 2;
  return [arc, first - 40 * arc, ...rest].join('.');
}

/** Decodes a DER PKCS#8 Ed25519 private key. Never throws; returns a reason instead. */
export function decodePkcs8(der: Uint8Array): Pkcs8Result {
  try {
    const outer = new DerReader(der);
    const body = new DerReader(outer.read(TAG_SEQUENCE, 'a PKCS#8 SEQUENCE'));
    if (!outer.done) throw new DerError('trailing data after the PKCS#8 structure');

    const version = body.read(TAG_INTEGER, 'the PKCS#8 version');
    if (version.length !== 1 || (version[0] !== 0 && version[0] !== 1)) {
      throw new DerError('unsupported PKCS#8 version');
    }

    const algorithm = new DerReader(body.read(TAG_SEQUENCE, 'the algorithm identifier'));
    const oid = algorithm.read(TAG_OID, 'the algorithm OID');
    if (!bytesEqual(oid, OID_ED25519)) {
      throw new DerError(`the key algorithm is ${oidToString(oid)}, not Ed25519 (1.3.101.112)`);
    }
    if (!algorithm.done) throw new DerError('unexpected Ed25519 algorithm parameters');

    const wrapped = new DerReader(body.read(TAG_OCTET_STRING, 'the private key OCTET STRING'));
    const seedView = wrapped.read(TAG_OCTET_STRING, 'the Ed25519 CurvePrivateKey');
    if (!wrapped.done || seedView.length !== ED25519_SEED_LENGTH) {
      throw new DerError(`the Ed25519 private key is not ${ED25519_SEED_LENGTH} bytes`);
    }

    if (body.peekTag() === TAG_ATTRIBUTES) body.read(TAG_ATTRIBUTES, 'attributes');
    let publicKey: Uint8Array | undefined;
    if (body.peekTag() === TAG_PUBLIC_KEY) {
      const bits = body.read(TAG_PUBLIC_KEY, 'the public key');
      if (bits.length !== ED25519_PUBLIC_KEY_LENGTH + 1 || bits[0] !== 0) {
        throw new DerError('the embedded public key is not a 32-byte Ed25519 key');
      }
      publicKey = bits.slice(1);
    }
    if (!body.done) throw new DerError('unexpected fields in the PKCS#8 structure');

    return publicKey === undefined
      ? { ok: true, seed: seedView.slice() }
      : { ok: true, seed: seedView.slice(), publicKey };
  } catch (err) {
    if (err instanceof DerError) return { ok: false, reason: err.message };
    throw err;
  }
}

/** The v1 DER PKCS#8 encoding of a 32-byte Ed25519 seed (what OpenSSL and node:crypto write). */
export function encodePkcs8(seed: Uint8Array): Uint8Array {
  if (seed.length !== ED25519_SEED_LENGTH) throw new TypeError('an Ed25519 seed is 32 bytes');
  const der = new Uint8Array(PKCS8_ED25519_V1_PREFIX.length + seed.length);
  der.set(PKCS8_ED25519_V1_PREFIX, 0);
  der.set(seed, PKCS8_ED25519_V1_PREFIX.length);
  return der;
}

/** Wraps DER bytes in a PEM block with `label`, 64 characters per line. */
export function derToPem(der: Uint8Array, label: string): string {
  const b64 = encodeBase64(der);
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += 64) lines.push(b64.slice(i, i + 64));
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/**
 * Unwraps a single PEM block. Returns the label and DER, or a reason that never quotes the body.
 * Whitespace (including CRLF) inside the body is tolerated.
 */
export function pemToDer(
  text: string,
): { ok: true; label: string; der: Uint8Array } | { ok: false; reason: string } {
  const trimmed = text.trim();
  const begins = trimmed.split('-----BEGIN ').length - 1;
  if (begins !== 1) {
    return { ok: false, reason: begins === 0 ? 'no PEM block' : 'more than one PEM block' };
  }
  const match = /^-----BEGIN ([A-Z0-9 ]{1,64})-----([\s\S]*?)-----END ([A-Z0-9 ]{1,64})-----$/.exec(trimmed);
  if (match === null || match[1] !== match[3]) {
    return { ok: false, reason: 'malformed PEM (expected one -----BEGIN …----- … -----END …----- block)' };
  }
  const label = match[1] ?? '';
  const der = decodeBase64Strict((match[2] ?? '').replace(/\s+/g, ''));
  if (der === undefined) return { ok: false, reason: `the PEM "${label}" body is not valid base64` };
  return { ok: true, label, der };
}
