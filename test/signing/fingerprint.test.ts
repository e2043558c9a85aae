import { createHash, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signerFromSeed } from '../../src/signing/ed25519-signer.js';
import { checkPartyId, ledgerFingerprint } from '../../src/signing/fingerprint.js';
import { hex, nodeRawPublicKey } from './support/node-keys.js';
import { RFC8032_VECTORS } from './support/rfc8032-vectors.js';

/**
 * Regression constant: the ledger fingerprint of the RFC 8032 TEST 1 public key
 * d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a, computed once with
 * node:crypto as "1220" + sha256(00 00 00 0c ‖ key) and pasted here.
 */
const TEST1_FINGERPRINT = '1220035a791d845bbb8195615e7eccd7a57c2ec4075c2e88695f194bab4e0194a889';

/** The fingerprint computed independently, with node:crypto. */
function nodeFingerprint(raw: Uint8Array): string {
  const digest = createHash('sha256')
    .update(Buffer.from([0x00, 0x00, 0x00, 0x0c]))
    .update(raw)
    .digest('hex');
  return `1220${digest}`;
}

describe('ledgerFingerprint', () => {
  const test1 = RFC8032_VECTORS[0]!;

  it('matches the regression constant for the RFC 8032 TEST 1 key', () => {
    expect(nodeFingerprint(hex(test1.publicKey))).toBe(TEST1_FINGERPRINT);
    expect(ledgerFingerprint(hex(test1.publicKey))).toBe(TEST1_FINGERPRINT);
    expect(signerFromSeed(hex(test1.secretKey)).fingerprint).toBe(TEST1_FINGERPRINT);
    expect(TEST1_FINGERPRINT).toMatch(/^1220[0-9a-f]{64}$/);
  });

  it('matches node:crypto for every vector key and for random keys', () => {
    for (const v of RFC8032_VECTORS) {
      expect(ledgerFingerprint(hex(v.publicKey))).toBe(nodeFingerprint(hex(v.publicKey)));
    }
    for (let i = 0; i < 10; i++) {
      const raw = nodeRawPublicKey(generateKeyPairSync('ed25519').publicKey);
      expect(ledgerFingerprint(raw)).toBe(nodeFingerprint(raw));
    }
  });

  it('is not the plain sha256 of the key (the purpose prefix matters)', () => {
    const raw = hex(test1.publicKey);
    expect(ledgerFingerprint(raw)).not.toBe(`1220${createHash('sha256').update(raw).digest('hex')}`);
  });

  it('refuses a key that is not 32 raw bytes', () => {
    expect(() => ledgerFingerprint(new Uint8Array(31))).toThrow(TypeError);
    expect(() => ledgerFingerprint(new Uint8Array(44))).toThrow(TypeError);
  });
});

describe('checkPartyId', () => {
  const other = ledgerFingerprint(hex(RFC8032_VECTORS[1]!.publicKey));

  it.each([
    ['hint::fingerprint', `acme-mm::${TEST1_FINGERPRINT}`],
    ['upper-case fingerprint', `acme-mm::${TEST1_FINGERPRINT.toUpperCase()}`],
    ['empty hint', `::${TEST1_FINGERPRINT}`],
    ['hint containing ::', `acme::desk-1::${TEST1_FINGERPRINT}`],
  ])('match: %s', (_name, partyId) => {
    expect(checkPartyId(partyId, TEST1_FINGERPRINT)).toEqual({ ok: true, kind: 'match' });
  });

  it.each([
    ['another key', `acme-mm::${other}`, other],
    ['truncated fingerprint', `acme-mm::${TEST1_FINGERPRINT.slice(0, 40)}`, TEST1_FINGERPRINT.slice(0, 40)],
    ['extra characters', `acme-mm::${TEST1_FINGERPRINT}00`, `${TEST1_FINGERPRINT}00`],
    ['bare 1220 prefix', 'acme-mm::1220', '1220'],
  ])('mismatch: %s', (_name, partyId, actual) => {
    const verdict = checkPartyId(partyId, TEST1_FINGERPRINT);
    expect(verdict).toMatchObject({ ok: false, kind: 'mismatch', expected: TEST1_FINGERPRINT, actual });
    if (verdict.ok) throw new Error('unreachable');
    expect(verdict.reason).toContain(TEST1_FINGERPRINT);
  });

  it.each([
    ['no separator', 'acme-mm'],
    ['empty', ''],
    ['fingerprint without a hint separator', TEST1_FINGERPRINT],
    ['another hash format after ::', 'acme-mm::1e20abcdef'],
    ['fingerprint not in the last segment', `acme::${TEST1_FINGERPRINT}::desk`],
    ['single colon', `acme:${TEST1_FINGERPRINT}`],
  ])('unverifiable (not a mismatch): %s', (_name, partyId) => {
    const verdict = checkPartyId(partyId, TEST1_FINGERPRINT);
    expect(verdict.ok).toBe(false);
    expect(verdict.kind).toBe('unverifiable');
    if (verdict.kind !== 'unverifiable') throw new Error('unreachable');
    expect(verdict.reason).toMatch(/cannot be checked/);
  });
});
