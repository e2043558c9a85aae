import { createHash, randomBytes, sign as nodeSign, verify as nodeVerify } from 'node:crypto';
import { format, inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ed25519PublicKey, ed25519Sign, ed25519Verify } from '../../src/signing/ed25519.js';
import { signerFromSeed } from '../../src/signing/ed25519-signer.js';
import { hex, nodeKeysFromSeed, nodeRawPublicKey, toB64, toHex } from './support/node-keys.js';
import { RFC8032_VECTORS } from './support/rfc8032-vectors.js';

describe('RFC 8032 section 7.1 test vectors', () => {
  it('includes TEST 1, 2, 3 and 1024 with the published message lengths', () => {
    expect(RFC8032_VECTORS.map((v) => [v.name, v.message.length / 2])).toEqual([
      ['TEST 1', 0],
      ['TEST 2', 1],
      ['TEST 3', 2],
      ['TEST 1024', 1023],
      ['TEST SHA(abc)', 64],
    ]);
  });

  it.each(RFC8032_VECTORS)('$name: the vector itself agrees with node:crypto', (v) => {
    const { privateKey, publicKey } = nodeKeysFromSeed(hex(v.secretKey));
    expect(toHex(nodeRawPublicKey(publicKey))).toBe(v.publicKey);
    expect(nodeSign(null, hex(v.message), privateKey).toString('hex')).toBe(v.signature);
    expect(nodeVerify(null, hex(v.message), publicKey, hex(v.signature))).toBe(true);
  });

  it.each(RFC8032_VECTORS)('$name: the signer reproduces the public key and signature', (v) => {
    // The vectors sign messages of every length: a signer told to accept that length.
    const signer = signerFromSeed(hex(v.secretKey), 'raw', v.message.length / 2);
    expect(toHex(signer.publicKeyRaw)).toBe(v.publicKey);
    expect(signer.publicKey).toBe(hex(v.publicKey).toString('base64'));
    // sign() takes the base64 of the bytes to sign.
    const signature = signer.sign(hex(v.message).toString('base64'));
    expect(Buffer.from(signature, 'base64').toString('hex')).toBe(v.signature);
  });
});

describe('cross-check with @noble/ed25519 (the reference implementation)', () => {
  it('signs exactly as noble does for 50 random keys and messages', () => {
    for (let i = 0; i < 50; i++) {
      const seed = randomBytes(32);
      const message = randomBytes(i === 0 ? 0 : 1 + (i % 7) * 9);
      const signer = signerFromSeed(seed, 'raw', message.length);
      const signature = Buffer.from(signer.sign(message.toString('base64')), 'base64');
      expect(toHex(signature)).toBe(toHex(ed25519Sign(message, seed)));
      expect(ed25519Verify(signature, message, ed25519PublicKey(seed))).toBe(true);
    }
  });
});

describe('cross-check with node:crypto', () => {
  it('signatures over 50 random messages and keys verify with node:crypto and match its output', () => {
    for (let i = 0; i < 50; i++) {
      const seed = randomBytes(32);
      const message = randomBytes(i === 0 ? 0 : 1 + (i % 5) * 16);
      const signer = signerFromSeed(seed, i % 2 === 0 ? 'raw' : 'spki', message.length);
      const { privateKey, publicKey } = nodeKeysFromSeed(seed);
      const signature = Buffer.from(signer.sign(message.toString('base64')), 'base64');
      expect(signature).toHaveLength(64);
      expect(nodeVerify(null, message, publicKey, signature)).toBe(true);
      expect(signature.equals(nodeSign(null, message, privateKey))).toBe(true);
    }
  });

  it('signs the decoded bytes: not the base64 text, not a re-hash, not a prefixed message', () => {
    const seed = randomBytes(32);
    const signer = signerFromSeed(seed, 'raw');
    const { publicKey } = nodeKeysFromSeed(seed);
    const hash = createHash('sha256').update('a prepared transaction').digest();
    const hashBase64 = hash.toString('base64');
    const signature = Buffer.from(signer.sign(hashBase64), 'base64');

    expect(nodeVerify(null, hash, publicKey, signature)).toBe(true);
    expect(nodeVerify(null, Buffer.from(hashBase64, 'utf8'), publicKey, signature)).toBe(false);
    expect(nodeVerify(null, createHash('sha256').update(hash).digest(), publicKey, signature)).toBe(false);
    expect(nodeVerify(null, createHash('sha512').update(hash).digest(), publicKey, signature)).toBe(false);
    // And the signature of the text (44 bytes, for a signer told to take 44) is a different one.
    const text = Buffer.from(hashBase64, 'utf8');
    expect(signerFromSeed(seed, 'raw', text.length).sign(text.toString('base64'))).not.toBe(
      signature.toString('base64'),
    );
  });

  it('is deterministic', () => {
    const signer = signerFromSeed(randomBytes(32));
    const hash = randomBytes(32).toString('base64');
    expect(signer.sign(hash)).toBe(signer.sign(hash));
  });
});

describe('sign() input validation', () => {
  const signer = signerFromSeed(hex(RFC8032_VECTORS[1]!.secretKey));

  it.each([
    ['not base64 at all', 'not base64!'],
    ['missing padding', 'YWI'],
    ['bad length', 'YWJjZ'],
    ['padding in the middle', 'YQ==YQ=='],
    ['non-canonical trailing bits', 'YR=='],
    ['URL-safe alphabet', 'ab-_'],
    ['leading whitespace', ' YWJj'],
    ['trailing newline', 'YWJj\n'],
    ['embedded newline', 'YWJj\nYWJj'],
  ])('rejects %s with a TypeError', (_name, input) => {
    expect(() => signer.sign(input)).toThrow(TypeError);
  });

  it('rejects a non-string with a TypeError', () => {
    expect(() => signer.sign(Buffer.from('abc') as unknown as string)).toThrow(TypeError);
    expect(() => signer.sign(undefined as unknown as string)).toThrow(TypeError);
  });

  it('accepts canonical base64 of every padding length', () => {
    const seed = hex(RFC8032_VECTORS[1]!.secretKey);
    for (const input of ['', 'YQ==', 'YWI=', 'YWJj', 'YWJjZA==']) {
      const bytes = Buffer.from(input, 'base64').length;
      expect(Buffer.from(signerFromSeed(seed, 'raw', bytes).sign(input), 'base64')).toHaveLength(64);
    }
  });

  it.each([0, 1, 31, 33, 64])('refuses %i bytes: a prepared hash is 32 bytes', (n) => {
    expect(() => signer.sign(randomBytes(n).toString('base64'))).toThrow(/refusing to sign \d+ bytes/);
    expect(Buffer.from(signer.sign(randomBytes(32).toString('base64')), 'base64')).toHaveLength(64);
  });

  it('takes another length when configured, and then only that one', () => {
    const seed = hex(RFC8032_VECTORS[1]!.secretKey);
    const sha512Sized = signerFromSeed(seed, 'raw', 64);
    expect(Buffer.from(sha512Sized.sign(randomBytes(64).toString('base64')), 'base64')).toHaveLength(64);
    expect(() => sha512Sized.sign(randomBytes(32).toString('base64'))).toThrow(TypeError);
    expect(() => signerFromSeed(seed, 'raw', -1)).toThrow(TypeError);
    expect(() => signerFromSeed(seed, 'raw', 1.5)).toThrow(TypeError);
  });
});

describe('key handling', () => {
  const v = RFC8032_VECTORS[2]!;
  const seed = hex(v.secretKey);
  const seedHex = v.secretKey;
  const seedB64 = seed.toString('base64');
  const secretForms = [seedHex, seedHex.toUpperCase(), seedB64, seedHex.slice(0, 16), seedB64.slice(0, 12)];

  function expectNoSecret(text: string): void {
    for (const form of secretForms) expect(text).not.toContain(form);
    // A Uint8Array printed by inspect shows decimal bytes.
    expect(text).not.toContain(Array.from(seed.subarray(0, 6)).join(', '));
  }

  it('never exposes the seed through JSON, toString, inspect, format or own properties', () => {
    const signer = signerFromSeed(seed, 'spki');
    const json = JSON.stringify(signer);
    expectNoSecret(json);
    expect(JSON.parse(json)).toEqual({
      algorithm: 'ed25519',
      publicKeyFormat: 'spki',
      raw: hex(v.publicKey).toString('base64'),
      spki: signer.publicKey,
      fingerprint: signer.fingerprint,
    });
    expectNoSecret(String(signer));
    expect(String(signer)).toContain(signer.fingerprint);
    const inspected = inspect(signer, { showHidden: true, depth: Infinity, getters: true });
    expectNoSecret(inspected);
    expect(inspected).toContain(signer.fingerprint);
    expectNoSecret(format('%o %O %j %s', signer, signer, signer, signer));
    expectNoSecret(inspect({ nested: { signer } }, { depth: Infinity }));
    for (const key of Reflect.ownKeys(signer)) {
      const value: unknown = Reflect.get(signer, key);
      expect(value instanceof Uint8Array && toHex(value) === seedHex).toBe(false);
      if (typeof value === 'string') expectNoSecret(value);
    }
    expect(Object.keys(signer).sort()).toEqual(['fingerprint', 'publicKey', 'publicKeyFormat']);
  });

  it('copies the seed, so the caller may zero its own copy', () => {
    for (const mine of [Uint8Array.from(seed), Buffer.from(seed)]) {
      const signer = signerFromSeed(mine, 'raw', v.message.length / 2);
      mine.fill(0);
      const signature = signer.sign(hex(v.message).toString('base64'));
      expect(Buffer.from(signature, 'base64').toString('hex')).toBe(v.signature);
    }
  });

  it("wipes its own copy of the seed, never the caller's (a Buffer's slice is a view)", () => {
    const mine = Buffer.from(seed);
    signerFromSeed(mine);
    expect(mine.equals(seed)).toBe(true);
  });

  it('hands out copies of the public key and is frozen', () => {
    const signer = signerFromSeed(seed);
    signer.publicKeyRaw.fill(0);
    expect(toHex(signer.publicKeyRaw)).toBe(v.publicKey);
    expect(Object.isFrozen(signer)).toBe(true);
  });

  it('exports the public key as raw or SPKI per the format', () => {
    const { publicKey } = nodeKeysFromSeed(seed);
    expect(signerFromSeed(seed, 'raw').publicKey).toBe(toB64(nodeRawPublicKey(publicKey)));
    expect(signerFromSeed(seed, 'spki').publicKey).toBe(
      publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    );
  });

  it('refuses a seed that is not 32 bytes and an unknown format', () => {
    expect(() => signerFromSeed(new Uint8Array(31))).toThrow(TypeError);
    expect(() => signerFromSeed(new Uint8Array(64))).toThrow(TypeError);
    expect(() => signerFromSeed(seed, 'pem' as unknown as 'raw')).toThrow(TypeError);
  });
});
