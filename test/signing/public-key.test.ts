import { generateKeyPairSync, randomBytes, sign as nodeSign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signerFromSeed } from '../../src/signing/ed25519-signer.js';
import {
  ED25519_SPKI_PREFIX,
  describePublicKey,
  encodePublicKey,
  parsePublicKey,
  publicKeyToSpki,
} from '../../src/signing/public-key.js';
import { verifySignature } from '../../src/signing/verify-signature.js';
import { hex, nodeKeysFromSeed, nodeRawPublicKey, toB64, toHex } from './support/node-keys.js';
import { RFC8032_VECTORS } from './support/rfc8032-vectors.js';

const nodeKeys = [
  ...RFC8032_VECTORS.map((v) => nodeKeysFromSeed(hex(v.secretKey)).publicKey),
  ...Array.from({ length: 5 }, () => generateKeyPairSync('ed25519').publicKey),
];

describe('SPKI export', () => {
  it('uses the fixed 12-byte Ed25519 SPKI prefix', () => {
    expect(toHex(ED25519_SPKI_PREFIX)).toBe('302a300506032b6570032100');
  });

  it.each(nodeKeys.map((k, i) => [i, k] as const))('key %i equals node:crypto export der/spki', (_i, key) => {
    const raw = nodeRawPublicKey(key);
    const nodeSpki = key.export({ format: 'der', type: 'spki' });
    expect(Buffer.from(publicKeyToSpki(raw)).equals(nodeSpki)).toBe(true);
    expect(encodePublicKey(raw, 'spki')).toBe(nodeSpki.toString('base64'));
    expect(encodePublicKey(raw, 'raw')).toBe(raw.toString('base64'));
    expect(describePublicKey(raw)).toMatchObject({ raw: toB64(raw), spki: nodeSpki.toString('base64') });
  });
});

describe('parsePublicKey', () => {
  it('parses both encodings to the raw 32 bytes', () => {
    for (const key of nodeKeys) {
      const raw = nodeRawPublicKey(key);
      expect(toHex(parsePublicKey(raw.toString('base64')))).toBe(toHex(raw));
      expect(toHex(parsePublicKey(key.export({ format: 'der', type: 'spki' }).toString('base64')))).toBe(
        toHex(raw),
      );
    }
  });

  it.each([
    ['not base64', 'not base64!'],
    ['31 bytes', randomBytes(31).toString('base64')],
    ['33 bytes', randomBytes(33).toString('base64')],
    ['64 bytes', randomBytes(64).toString('base64')],
    [
      'an X25519 SPKI',
      generateKeyPairSync('x25519').publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    ],
    [
      'an SPKI prefix with a wrong byte',
      Buffer.concat([hex('302a300506032b6571032100'), randomBytes(32)]).toString('base64'),
    ],
    [
      'a non-canonical point encoding (y >= p)',
      Buffer.from('ff'.repeat(31) + '7f', 'hex').toString('base64'),
    ],
  ])('refuses %s with a TypeError', (_name, input) => {
    expect(() => parsePublicKey(input)).toThrow(TypeError);
  });
});

describe('verifySignature', () => {
  const seed = randomBytes(32);
  const hash = randomBytes(32).toString('base64');

  it.each(['raw', 'spki'] as const)('accepts the signer’s own signature with a %s public key', (format) => {
    const signer = signerFromSeed(seed, format);
    const signature = signer.sign(hash);
    expect(verifySignature({ publicKey: signer.publicKey, preparedTransactionHash: hash, signature })).toBe(
      true,
    );
  });

  it('rejects a tampered signature, another hash, another key and malformed fields', () => {
    const signer = signerFromSeed(seed, 'raw');
    const signature = signer.sign(hash);
    const bad = Buffer.from(signature, 'base64');
    bad[0] = (bad[0] ?? 0) ^ 1;
    const other = signerFromSeed(randomBytes(32), 'raw');
    const ok = { publicKey: signer.publicKey, preparedTransactionHash: hash, signature };
    expect(verifySignature({ ...ok, signature: bad.toString('base64') })).toBe(false);
    expect(verifySignature({ ...ok, preparedTransactionHash: randomBytes(32).toString('base64') })).toBe(
      false,
    );
    expect(verifySignature({ ...ok, publicKey: other.publicKey })).toBe(false);
    expect(verifySignature({ ...ok, publicKey: 'garbage!' })).toBe(false);
    expect(verifySignature({ ...ok, signature: 'garbage!' })).toBe(false);
    expect(verifySignature({ ...ok, signature: signature.slice(0, 40) })).toBe(false);
    expect(verifySignature({ ...ok, preparedTransactionHash: `${hash}\n` })).toBe(false);
  });

  it('verifies the signature of the base64-decoded bytes, matching node:crypto', () => {
    const { privateKey } = nodeKeysFromSeed(seed);
    const signature = nodeSign(null, Buffer.from(hash, 'base64'), privateKey).toString('base64');
    expect(
      verifySignature({
        publicKey: signerFromSeed(seed).publicKey,
        preparedTransactionHash: hash,
        signature,
      }),
    ).toBe(true);
  });
});
