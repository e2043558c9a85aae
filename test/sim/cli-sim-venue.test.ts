import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createPrivateKey, sign as edSign } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSimVenue, simVenueCommand } from '../../src/cli/sim-venue.js';
import type { CommandIo } from '../../src/cli/command.js';
import { makeTestKey } from '../support/sim-harness.js';
import { limitOrderBody } from '../support/venue-wire.js';

function io(cwd: string): CommandIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {}, cwd };
}

/** Runs the command until `body` is done with the running venue. */
async function withRunning(
  argv: string[],
  cwd: string,
  body: (info: { baseUrl: string; submitUrl: string; apiKey: string }) => Promise<void>,
): Promise<{ code: number; out: string }> {
  const cio = io(cwd);
  let release!: () => void;
  const stop = new Promise<void>((r) => (release = r));
  let work: Promise<void> = Promise.resolve();
  const code = runSimVenue(
    argv,
    cio,
    () => stop,
    (info) => {
      work = body(info).finally(release);
    },
  );
  const result = await code;
  await work;
  return { code: result, out: cio.out.join('') };
}

const BASE = ['--port', '0', '--submit-port', '0', '--latency', 'instant', '--no-market'];

describe('ledger-mm sim-venue', () => {
  it('generates a 0600 key file, prints URLs, API key and env lines; the key really signs for the account', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'simcli-'));
    const { code, out } = await withRunning(
      [...BASE, '--key-out', 'keys/mm.key'],
      dir,
      async ({ baseUrl, apiKey }) => {
        const seedHex = readFileSync(join(dir, 'keys/mm.key'), 'utf8').trim();
        expect(seedHex).toMatch(/^[0-9a-f]{64}$/);
        expect(statSync(join(dir, 'keys/mm.key')).mode & 0o777).toBe(0o600);
        const auth = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
        expect((await fetch(`${baseUrl}/account`, { headers: auth })).status).toBe(200);
        const prep = (await (
          await fetch(`${baseUrl}/orders`, {
            method: 'POST',
            headers: auth,
            body: JSON.stringify(limitOrderBody()),
          })
        ).json()) as { data: { signing: Record<string, string> } };
        const s = prep.data.signing;
        const pkcs8 = Buffer.concat([
          Buffer.from('302e020100300506032b657004220420', 'hex'),
          Buffer.from(seedHex, 'hex'),
        ]);
        const key = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' });
        const account = (await (await fetch(`${baseUrl}/account`, { headers: auth })).json()) as {
          data: { partyId: string };
        };
        const pub = (key.export({ format: 'jwk' }) as { x: string }).x;
        const res = await fetch(s['submitUrl']!, {
          method: 'POST',
          body: JSON.stringify({
            partyId: account.data.partyId,
            commandId: s['commandId'],
            signature: edSign(null, Buffer.from(s['preparedTransactionHash']!, 'base64'), key).toString(
              'base64',
            ),
            publicKey: Buffer.from(pub, 'base64url').toString('base64'),
            submitToken: s['submitToken'],
            prepared: {
              preparedTransactionHash: s['preparedTransactionHash'],
              hashingSchemeVersion: s['hashingSchemeVersion'],
            },
          }),
        });
        expect(res.status).toBe(200);
      },
    );
    expect(code).toBe(0);
    expect(out).toMatch(/base URL: +http:\/\/127\.0\.0\.1:\d+\/v1/);
    expect(out).toMatch(/submit URL: +http:\/\/127\.0\.0\.1:\d+\/submit/);
    expect(out).toMatch(/API key: +mm_ak_\w+\.\w+/);
    expect(out).toContain('export LEDGER_MM_BASE_URL=');
    expect(out).toContain('export LEDGER_MM_SUBMIT_URL=');
    expect(out).toContain('export LEDGER_MM_API_KEY=mm_ak_');
    expect(out).toContain(`export LEDGER_MM_SIGNING_KEY_FILE=${join(dir, 'keys/mm.key')}`);
    expect(out).toContain('stopped');
  });

  it('registers a given public key (SPKI) instead of generating one', async () => {
    const key = makeTestKey();
    const dir = mkdtempSync(join(tmpdir(), 'simcli-'));
    const { code, out } = await withRunning(
      [...BASE, '--public-key', key.publicKeySpki, '--seed', '9'],
      dir,
      async () => {},
    );
    expect(code).toBe(0);
    expect(out).not.toContain('LEDGER_MM_SIGNING_KEY_FILE');
    expect(out).toContain('seed 9');
  });

  it('refuses bad usage with exit 2 and prints --help', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'simcli-'));
    const bad = io(dir);
    expect(await runSimVenue(['--latency', 'slow'], bad)).toBe(2);
    expect(bad.err.join('')).toContain('--latency must be one of');
    expect(await runSimVenue(['--port', 'x'], io(dir))).toBe(2);
    writeFileSync(join(dir, 'exists.key'), 'x');
    const exists = io(dir);
    expect(await runSimVenue([...BASE, '--key-out', 'exists.key'], exists, async () => {})).toBe(2);
    expect(exists.err.join('')).toContain('--force');
    const help = io(dir);
    expect(await simVenueCommand.run(['--help'], help)).toBe(0);
    expect(help.out.join('')).toContain('Usage: ledger-mm sim-venue');
    expect(simVenueCommand.name).toBe('sim-venue');
  });
});
