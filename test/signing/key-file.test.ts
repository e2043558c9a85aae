import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyFileError } from '../../src/signing/key-file-error.js';
import { formatKeyFile, parseKeyFile, readKeyFile } from '../../src/signing/key-file.js';
import { loadSigner } from '../../src/signing/load-signer.js';
import { hex, nodeKeysFromSeed, nodeRawPublicKey, nodeSeed, toB64, toHex } from './support/node-keys.js';
import { RFC8032_VECTORS } from './support/rfc8032-vectors.js';
import { errorOf } from '../support/thrown.js';

const posix = process.platform !== 'win32';

const V = RFC8032_VECTORS[2]!; // TEST 3
const SEED = hex(V.secretKey);
const PUB = hex(V.publicKey);
const OTHER_PUB = hex(RFC8032_VECTORS[1]!.publicKey);

/** Everything that would count as leaking key material for SEED, whole or in part. */
const SECRET_FRAGMENTS = [
  V.secretKey,
  V.secretKey.toUpperCase(),
  V.secretKey.slice(0, 12),
  V.secretKey.slice(-12),
  SEED.toString('base64'),
  SEED.toString('base64').slice(0, 10),
  Buffer.concat([SEED, PUB]).toString('base64').slice(0, 10),
  Buffer.concat([SEED, OTHER_PUB]).toString('base64'),
];

/** A PKCS#8 v2 (OneAsymmetricKey with the [1] public key) DER, built by hand. */
function pkcs8v2(seed: Uint8Array, pub: Uint8Array): Buffer {
  return Buffer.concat([hex('3051020101300506032b657004220420'), seed, hex('812100'), pub]);
}

function pem(der: Buffer, label = 'PRIVATE KEY', eol = '\n'): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return [`-----BEGIN ${label}-----`, ...lines, `-----END ${label}-----`, ''].join(eol);
}

const nodePair = generateKeyPairSync('ed25519');
const nodePem = nodePair.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
const nodePairSeed = nodeSeed(nodePair.privateKey);
const nodePairPub = nodeRawPublicKey(nodePair.publicKey);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-mm-keyfile-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

let counter = 0;
function writeKey(content: string | Buffer, mode = 0o600): string {
  const path = join(dir, `key-${counter++}`);
  writeFileSync(path, content);
  chmodSync(path, mode);
  return path;
}

describe('accepted key file formats', () => {
  const seedHex = V.secretKey;
  const seedB64 = SEED.toString('base64');
  const fullHex = Buffer.concat([SEED, PUB]).toString('hex');
  const fullB64 = Buffer.concat([SEED, PUB]).toString('base64');

  it.each<[string, string, Buffer]>([
    ['32-byte seed, hex', seedHex, PUB],
    ['32-byte seed, hex with trailing newline', `${seedHex}\n`, PUB],
    [
      '32-byte seed, upper-case hex split over lines with CRLF',
      `  ${seedHex.slice(0, 32).toUpperCase()}\r\n${seedHex.slice(32).toUpperCase()}\r\n`,
      PUB,
    ],
    ['32-byte seed, base64', seedB64, PUB],
    [
      '32-byte seed, base64 with surrounding whitespace',
      `\n\t${seedB64.slice(0, 20)}\n${seedB64.slice(20)}  \n`,
      PUB,
    ],
    ['64-byte seed‖public, hex', `${fullHex}\n`, PUB],
    ['64-byte seed‖public, hex over two lines', `${fullHex.slice(0, 64)}\n${fullHex.slice(64)}\n`, PUB],
    ['64-byte seed‖public, base64', `${fullB64}\n`, PUB],
    ['PKCS#8 PEM from node:crypto generateKeyPairSync', nodePem, nodePairPub],
    ['PKCS#8 PEM from node:crypto with CRLF', nodePem.replace(/\n/g, '\r\n'), nodePairPub],
    ['PKCS#8 PEM written by formatKeyFile', formatKeyFile(SEED, 'pem'), PUB],
    ['PKCS#8 v2 PEM with a matching public key', pem(pkcs8v2(SEED, PUB)), PUB],
    ['hex written by formatKeyFile', formatKeyFile(SEED, 'hex'), PUB],
    ['base64 written by formatKeyFile', formatKeyFile(SEED, 'base64'), PUB],
  ])('%s', (_name, content, expectedPub) => {
    const path = writeKey(content);
    const seed = readKeyFile(path);
    expect(seed).toHaveLength(32);
    expect(toHex(nodeRawPublicKey(nodeKeysFromSeed(seed).publicKey))).toBe(toHex(expectedPub));
    const signer = loadSigner({ keyFile: path, publicKeyFormat: 'raw' });
    expect(signer.publicKey).toBe(toB64(expectedPub));
  });

  it('reads the PEM seed node:crypto generated', () => {
    expect(toHex(readKeyFile(writeKey(nodePem)))).toBe(toHex(nodePairSeed));
  });

  it('node:crypto reads the PEM formatKeyFile writes', async () => {
    const { createPrivateKey } = await import('node:crypto');
    const key = createPrivateKey(formatKeyFile(SEED, 'pem'));
    expect(toHex(nodeSeed(key))).toBe(V.secretKey);
  });
});

describe('refused key file contents', () => {
  const ecPem = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    .privateKey.export({ format: 'pem', type: 'pkcs8' })
    .toString();
  const x25519Pem = generateKeyPairSync('x25519')
    .privateKey.export({ format: 'pem', type: 'pkcs8' })
    .toString();
  const encryptedPem = nodePair.privateKey
    .export({ format: 'pem', type: 'pkcs8', cipher: 'aes-256-cbc', passphrase: 'pw' })
    .toString();

  it.each<[string, string | Buffer, string, RegExp]>([
    [
      '64-byte key whose halves are from different keys',
      Buffer.concat([SEED, OTHER_PUB]).toString('hex'),
      'KEY_FILE_KEY_MISMATCH',
      /public half/,
    ],
    [
      '64-byte key, base64, mismatched',
      Buffer.concat([SEED, OTHER_PUB]).toString('base64'),
      'KEY_FILE_KEY_MISMATCH',
      /public half/,
    ],
    [
      'PKCS#8 v2 with a foreign public key',
      pem(pkcs8v2(SEED, OTHER_PUB)),
      'KEY_FILE_KEY_MISMATCH',
      /embeds a public key/,
    ],
    ['garbage text', 'this is not a key\n', 'KEY_FILE_INVALID', /neither hex, base64 nor PEM/],
    [
      'binary garbage',
      Buffer.from([0, 1, 2, 255, 254, 10]),
      'KEY_FILE_INVALID',
      /neither hex, base64 nor PEM/,
    ],
    ['empty file', '\n  \n', 'KEY_FILE_INVALID', /empty/],
    ['31-byte hex seed', V.secretKey.slice(0, 62), 'KEY_FILE_INVALID', /31 bytes/],
    ['33-byte hex seed', `${V.secretKey}00`, 'KEY_FILE_INVALID', /33 bytes/],
    ['odd-length hex', V.secretKey.slice(1), 'KEY_FILE_INVALID', /neither hex, base64 nor PEM/],
    [
      '48-byte base64',
      Buffer.concat([SEED, SEED.subarray(0, 16)]).toString('base64'),
      'KEY_FILE_INVALID',
      /48 bytes/,
    ],
    ['unpadded base64 seed', SEED.toString('base64').replace(/=+$/, ''), 'KEY_FILE_INVALID', /neither/],
    ['URL-safe base64 seed', SEED.toString('base64url') + '=', 'KEY_FILE_INVALID', /neither/],
    ['hex with a 0x prefix', `0x${V.secretKey}`, 'KEY_FILE_INVALID', /neither/],
    ['all-zero seed', '00'.repeat(32), 'KEY_FILE_INVALID', /all zeros/],
    ['P-256 PKCS#8 PEM', ecPem, 'KEY_FILE_INVALID', /1\.2\.840\.10045\.2\.1.*not Ed25519/],
    ['X25519 PKCS#8 PEM', x25519Pem, 'KEY_FILE_INVALID', /1\.3\.101\.110.*not Ed25519/],
    ['encrypted PKCS#8 PEM', encryptedPem, 'KEY_FILE_INVALID', /encrypted PKCS#8 is not supported/],
    [
      'OpenSSH PEM',
      `-----BEGIN OPENSSH PRIVATE KEY-----\n${SEED.toString('base64')}\n-----END OPENSSH PRIVATE KEY-----\n`,
      'KEY_FILE_INVALID',
      /"OPENSSH PRIVATE KEY" is not supported/,
    ],
    [
      'two PEM blocks',
      formatKeyFile(SEED, 'pem') + formatKeyFile(SEED, 'pem'),
      'KEY_FILE_INVALID',
      /more than one PEM block/,
    ],
    [
      'PEM with mismatched END label',
      formatKeyFile(SEED, 'pem').replace('END PRIVATE', 'END PUBLIC'),
      'KEY_FILE_INVALID',
      /malformed PEM/,
    ],
    [
      'PEM with a corrupted body',
      formatKeyFile(SEED, 'pem').replace(/\n([A-Za-z0-9])/, '\n!$1'),
      'KEY_FILE_INVALID',
      /not valid base64/,
    ],
    [
      'PEM of a truncated DER',
      pem(Buffer.concat([hex('302e020100300506032b657004220420'), SEED.subarray(0, 20)])),
      'KEY_FILE_INVALID',
      /truncated DER/,
    ],
    [
      'PEM with trailing DER data',
      pem(Buffer.concat([hex('302e020100300506032b657004220420'), SEED, hex('00')])),
      'KEY_FILE_INVALID',
      /trailing data/,
    ],
    [
      'public key PEM',
      nodePair.publicKey.export({ format: 'pem', type: 'spki' }).toString(),
      'KEY_FILE_INVALID',
      /"PUBLIC KEY" is not supported/,
    ],
  ])('%s', (_name, content, code, reason) => {
    const path = writeKey(content);
    const err = errorOf(() => readKeyFile(path), KeyFileError);
    expect(err.code).toBe(code);
    expect(err.path).toBe(path);
    expect(err.message).toContain(path);
    expect(err.reason).toMatch(reason);
    const everything = `${err.message}\n${err.stack ?? ''}\n${JSON.stringify(err)}\n${String(err.cause)}`;
    for (const fragment of SECRET_FRAGMENTS) expect(everything).not.toContain(fragment);
    if (typeof content === 'string') {
      // No line of the file (e.g. a PEM body line) appears in the error either.
      for (const line of content.split(/\r?\n/)) {
        if (line.length >= 16 && !line.startsWith('-----')) expect(everything).not.toContain(line.trim());
      }
    }
    expect(() => loadSigner({ keyFile: path, publicKeyFormat: 'raw' })).toThrow(KeyFileError);
  });

  it('parseKeyFile refuses without touching the file system and names the given path', () => {
    expect(() => parseKeyFile('nope', '/etc/mm/key')).toThrow(/key file \/etc\/mm\/key: /);
  });
});

describe.skipIf(!posix)('key file permissions', () => {
  it.each([0o644, 0o640, 0o604, 0o660, 0o666, 0o700 | 0o010, 0o620])(
    'refuses mode %o unless allowInsecureKeyFile',
    (mode) => {
      const path = writeKey(V.secretKey, mode);
      const err = errorOf(() => readKeyFile(path), KeyFileError);
      expect(err.code).toBe('KEY_FILE_INSECURE_PERMISSIONS');
      expect(err.message).toContain(path);
      expect(err.message).toContain('chmod 600');
      expect(err.message).toContain('0' + mode.toString(8));
      for (const fragment of SECRET_FRAGMENTS) expect(err.message).not.toContain(fragment);

      expect(() => loadSigner({ keyFile: path, publicKeyFormat: 'raw' })).toThrow(/chmod 600/);
      expect(toHex(readKeyFile(path, { allowInsecureKeyFile: true }))).toBe(V.secretKey);
      const signer = loadSigner({ keyFile: path, publicKeyFormat: 'spki', allowInsecureKeyFile: true });
      expect(toHex(signer.publicKeyRaw)).toBe(V.publicKey);
    },
  );

  it.each([0o600, 0o400, 0o700])('accepts mode %o', (mode) => {
    const path = writeKey(V.secretKey, mode);
    expect(toHex(readKeyFile(path))).toBe(V.secretKey);
  });

  it('checks permissions before parsing (an insecure garbage file reports permissions)', () => {
    const path = writeKey('garbage', 0o644);
    expect(() => readKeyFile(path)).toThrow(
      expect.objectContaining({ code: 'KEY_FILE_INSECURE_PERMISSIONS' }),
    );
  });
});

describe('unreadable key files', () => {
  it('reports a missing file', () => {
    const path = join(dir, 'does-not-exist');
    expect(() => readKeyFile(path)).toThrow(
      expect.objectContaining({ code: 'KEY_FILE_UNREADABLE', path, reason: 'does not exist' }),
    );
  });

  it('reports an empty path as not configured', () => {
    expect(() => readKeyFile('')).toThrow('key file (not configured): no signing key file is configured');
    expect(() => loadSigner({ keyFile: '', publicKeyFormat: 'raw', allowInsecureKeyFile: false })).toThrow(
      expect.objectContaining({ code: 'KEY_FILE_UNREADABLE', path: '' }),
    );
  });

  it('reports a directory', () => {
    const path = join(dir, 'a-directory');
    mkdirSync(path, { mode: 0o700 });
    expect(() => readKeyFile(path)).toThrow(expect.objectContaining({ code: 'KEY_FILE_UNREADABLE' }));
  });

  it('refuses a file far larger than any key file', () => {
    const path = writeKey('a'.repeat(20_000));
    expect(() => readKeyFile(path)).toThrow(expect.objectContaining({ code: 'KEY_FILE_INVALID' }));
  });
});

describe('loadSigner', () => {
  it('builds the signer with the configured public key format', () => {
    const path = writeKey(`${V.secretKey}\n`);
    const hashLength = V.message.length / 2;
    const raw = loadSigner({ keyFile: path, publicKeyFormat: 'raw', hashLength });
    const spki = loadSigner({ keyFile: path, publicKeyFormat: 'spki' });
    const { publicKey } = nodeKeysFromSeed(SEED);
    expect(raw.publicKey).toBe(PUB.toString('base64'));
    expect(spki.publicKey).toBe(publicKey.export({ format: 'der', type: 'spki' }).toString('base64'));
    expect(raw.fingerprint).toBe(spki.fingerprint);
    expect(Buffer.from(raw.sign(hex(V.message).toString('base64')), 'base64').toString('hex')).toBe(
      V.signature,
    );
  });
});
