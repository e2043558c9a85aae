import { createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/command.js';
import { keygenCommand } from '../../src/cli/keygen.js';
import { readKeyFile } from '../../src/signing/key-file.js';
import { nodeKeysFromSeed, nodeRawPublicKey } from '../signing/support/node-keys.js';
import { runCaptured, type CapturedRun } from '../support/captured-io.js';
import { tempDirPerTest } from '../support/temp-dir.js';

const posix = process.platform !== 'win32';

const dir = tempDirPerTest('ledger-mm-keygen-');

async function runKeygen(...argv: string[]): Promise<CapturedRun> {
  return runCaptured((io) => keygenCommand.run(argv, io), {}, dir());
}

function printed(stdout: string, label: string): string {
  const match = new RegExp(`${label}:\\s+(\\S+)`).exec(stdout);
  if (match?.[1] === undefined) throw new Error(`"${label}" not printed:\n${stdout}`);
  return match[1];
}

/** The public facts of a key file, computed with node:crypto only. */
function expectedFromFile(path: string): { raw: string; spki: string; fingerprint: string; seed: Buffer } {
  const seed = Buffer.from(readKeyFile(path));
  const { publicKey } = nodeKeysFromSeed(seed);
  const raw = nodeRawPublicKey(publicKey);
  return {
    raw: raw.toString('base64'),
    spki: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    fingerprint: `1220${createHash('sha256')
      .update(Buffer.concat([Buffer.from([0, 0, 0, 12]), raw]))
      .digest('hex')}`,
    seed,
  };
}

describe('ledger-mm keygen', () => {
  it('is the keygen command', () => {
    expect(keygenCommand.name).toBe('keygen');
  });

  it.each(['hex', 'base64', 'pem'] as const)(
    'writes a %s key with mode 0600 and prints its public key and fingerprint, never the secret',
    async (format) => {
      const result = await runKeygen('--out', 'mm.key', '--format', format);
      expect(result.code).toBe(EXIT.OK);
      expect(result.stderr).toBe('');
      const path = join(dir(), 'mm.key');
      if (posix) expect(statSync(path).mode & 0o777).toBe(0o600);

      const expected = expectedFromFile(path);
      expect(printed(result.stdout, 'Public key \\(raw, base64\\)')).toBe(expected.raw);
      expect(printed(result.stdout, 'Public key \\(spki, base64\\)')).toBe(expected.spki);
      expect(printed(result.stdout, 'Ledger fingerprint')).toBe(expected.fingerprint);
      expect(result.stdout).toContain(`::${expected.fingerprint}`);
      expect(result.stdout).toContain(`export LEDGER_MM_SIGNING_KEY_FILE=${path}`);

      const fileText = readFileSync(path, 'utf8');
      expect(result.stdout).not.toContain(expected.seed.toString('hex'));
      expect(result.stdout).not.toContain(expected.seed.toString('base64'));
      for (const line of fileText.split('\n')) {
        if (line.length > 0 && !line.startsWith('-----')) expect(result.stdout).not.toContain(line);
      }
      if (format === 'pem') {
        // node:crypto reads the PEM and agrees on the public key.
        const key = createPublicKey(createPrivateKey(fileText));
        expect(key.export({ format: 'der', type: 'spki' }).toString('base64')).toBe(expected.spki);
      }
    },
  );

  it('defaults to hex', async () => {
    const result = await runKeygen('--out', 'k');
    expect(result.code).toBe(EXIT.OK);
    expect(readFileSync(join(dir(), 'k'), 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
  });

  it('accepts an absolute --out path and the short options', async () => {
    const path = join(dir(), 'abs.pem');
    const result = await runKeygen('-o', path, '-f', 'pem');
    expect(result.code).toBe(EXIT.OK);
    expect(readFileSync(path, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  });

  it('shell-quotes a path with spaces in the export line', async () => {
    const result = await runKeygen('--out', 'my key');
    expect(result.code).toBe(EXIT.OK);
    expect(result.stdout).toContain(`export LEDGER_MM_SIGNING_KEY_FILE='${join(dir(), 'my key')}'`);
  });

  it('refuses to overwrite without --force (exit 2) and leaves the file untouched', async () => {
    const path = join(dir(), 'mm.key');
    writeFileSync(path, 'existing\n', { mode: 0o600 });
    const result = await runKeygen('--out', 'mm.key');
    expect(result.code).toBe(EXIT.USAGE);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(path);
    expect(result.stderr).toContain('--force');
    expect(readFileSync(path, 'utf8')).toBe('existing\n');
  });

  it('overwrites with --force, with a new key and mode 0600', async () => {
    const first = await runKeygen('--out', 'mm.key');
    const second = await runKeygen('--out', 'mm.key', '--force');
    expect(second.code).toBe(EXIT.OK);
    expect(printed(second.stdout, 'Ledger fingerprint')).not.toBe(
      printed(first.stdout, 'Ledger fingerprint'),
    );
    const path = join(dir(), 'mm.key');
    if (posix) expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(printed(second.stdout, 'Ledger fingerprint')).toBe(expectedFromFile(path).fingerprint);
    expect(readdirSync(dir())).toEqual(['mm.key']);
  });

  it('--help prints the usage and writes nothing', async () => {
    const result = await runKeygen('--help');
    expect(result.code).toBe(EXIT.OK);
    expect(result.stdout).toBe(keygenCommand.usage);
    expect(result.stdout).toMatch(/Usage: ledger-mm keygen --out FILE/);
    expect(readdirSync(dir())).toEqual([]);
    expect((await runKeygen('-h', '--out', 'x')).stdout).toBe(keygenCommand.usage);
    expect(readdirSync(dir())).toEqual([]);
  });

  it.each([
    ['no --out', []],
    ['empty --out', ['--out', '']],
    ['an unknown --format', ['--out', 'k', '--format', 'der']],
    ['an unknown option', ['--out', 'k', '--print-secret']],
    ['a positional argument', ['--out', 'k', 'extra']],
    ['--out without a value', ['--out']],
  ])('exits 2 with usage on %s', async (_name, argv) => {
    const result = await runKeygen(...argv);
    expect(result.code).toBe(EXIT.USAGE);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Usage: ledger-mm keygen');
    expect(readdirSync(dir())).toEqual([]);
  });

  it('exits 1 when the file cannot be written', async () => {
    const result = await runKeygen('--out', join('no-such-dir', 'k'));
    expect(result.code).toBe(EXIT.FAILED);
    expect(result.stderr).toContain('does not exist');
  });
});
