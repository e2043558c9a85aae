import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEY_FILE_MODE, generateKeyFile } from '../../src/signing/generate-key-file.js';
import { KeyFileError } from '../../src/signing/key-file-error.js';
import { readKeyFile } from '../../src/signing/key-file.js';
import { loadSigner } from '../../src/signing/load-signer.js';
import { nodeKeysFromSeed, toB64 } from './support/node-keys.js';
import { tempDirPerTest } from '../support/temp-dir.js';

const posix = process.platform !== 'win32';

const dir = tempDirPerTest('ledger-mm-genkey-');

function mode(path: string): number {
  return statSync(path).mode & 0o777;
}

describe('generateKeyFile', () => {
  it.each(['hex', 'base64', 'pem'] as const)(
    'writes a %s key file with mode 0600 that loads back',
    (format) => {
      const path = join(dir(), `key.${format}`);
      const generated = generateKeyFile(path, { format });
      if (posix) expect(mode(path)).toBe(KEY_FILE_MODE);
      expect(generated.path).toBe(path);
      expect(generated.format).toBe(format);

      const seed = readKeyFile(path);
      const { publicKey } = nodeKeysFromSeed(seed);
      expect(generated.spki).toBe(publicKey.export({ format: 'der', type: 'spki' }).toString('base64'));
      const signer = loadSigner({ keyFile: path, publicKeyFormat: 'raw' });
      expect(generated.raw).toBe(signer.publicKey);
      expect(generated.fingerprint).toBe(signer.fingerprint);

      const text = readFileSync(path, 'utf8');
      if (format === 'pem') expect(text).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
      if (format === 'hex') expect(text).toMatch(/^[0-9a-f]{64}\n$/);
      if (format === 'base64') expect(text).toMatch(/^[A-Za-z0-9+/]{43}=\n$/);
      // What the caller gets back is public only.
      expect(JSON.stringify(generated)).not.toContain(Buffer.from(seed).toString('hex'));
      expect(JSON.stringify(generated)).not.toContain(toB64(seed));
    },
  );

  it('defaults to hex and generates a different key every time', () => {
    const a = generateKeyFile(join(dir(), 'a'));
    const b = generateKeyFile(join(dir(), 'b'));
    expect(a.format).toBe('hex');
    expect(a.raw).not.toBe(b.raw);
  });

  it.skipIf(!posix)('sets mode 0600 whatever the umask', () => {
    for (const [umask, name] of [
      [0o277, 'strict-umask'],
      [0o000, 'loose-umask'],
    ] as const) {
      const previous = process.umask(umask);
      try {
        const path = join(dir(), name);
        generateKeyFile(path);
        expect(mode(path)).toBe(0o600);
      } finally {
        process.umask(previous);
      }
    }
  });

  it('refuses to overwrite an existing file and leaves it untouched', () => {
    const path = join(dir(), 'existing');
    writeFileSync(path, 'precious\n');
    expect(() => generateKeyFile(path)).toThrow(KeyFileError);
    expect(() => generateKeyFile(path)).toThrow(expect.objectContaining({ code: 'KEY_FILE_EXISTS', path }));
    expect(readFileSync(path, 'utf8')).toBe('precious\n');
  });

  it('replaces an existing file with force, with mode 0600 and no temporary file left', () => {
    const path = join(dir(), 'existing');
    const first = generateKeyFile(path);
    chmodSync(path, 0o644);
    const second = generateKeyFile(path, { force: true, format: 'pem' });
    expect(second.raw).not.toBe(first.raw);
    if (posix) expect(mode(path)).toBe(0o600);
    expect(loadSigner({ keyFile: path, publicKeyFormat: 'raw' }).publicKey).toBe(second.raw);
    expect(readdirSync(dir())).toEqual(['existing']);
  });

  it('force also works when the file does not exist', () => {
    const path = join(dir(), 'fresh');
    generateKeyFile(path, { force: true });
    expect(readdirSync(dir())).toEqual(['fresh']);
  });

  it('reports a missing directory as unwritable', () => {
    const path = join(dir(), 'missing', 'key');
    expect(() => generateKeyFile(path)).toThrow(
      expect.objectContaining({ code: 'KEY_FILE_UNWRITABLE', path }),
    );
    expect(() => generateKeyFile(path, { force: true })).toThrow(
      expect.objectContaining({ code: 'KEY_FILE_UNWRITABLE', path }),
    );
  });
});
