import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CommandIo } from '../../src/cli/command.js';
import { runCli } from '../../src/cli/run-cli.js';
import { parseKeyFile, signerFromSeed } from '../../src/signing/index.js';
import { SimVenue } from '../../src/sim/sim-venue.js';
import { testSimConfig } from '../helpers/sim-harness.js';

let dir: string;
let venue: SimVenue | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-mm-check-sim-'));
});
afterEach(async () => {
  await venue?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function cli(argv: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string }> {
  let out = '';
  const io: CommandIo = { stdout: (t) => (out += t), stderr: (t) => (out += t), env, cwd: dir };
  return { code: await runCli(argv, io), out };
}

it('keygen, then check against the simulated venue over HTTP: every check passes', async () => {
  const keyFile = join(dir, 'key');
  expect((await cli(['keygen', '--out', keyFile], {})).code).toBe(0);
  const signer = signerFromSeed(parseKeyFile(readFileSync(keyFile, 'utf8'), keyFile));

  venue = new SimVenue({ config: testSimConfig() });
  const { apiKey, partyId } = venue.registerAccount({
    name: 'Check',
    slug: 'check',
    publicKey: signer.publicKey,
    balances: { USDC: '1000', BTC: '1' },
  });
  // The simulated party carries the fingerprint of the key it was created from.
  expect(partyId).toBe(`check-mm::${signer.fingerprint}`);
  const urls = await venue.listen({ host: '127.0.0.1', port: 0, submitPort: 0 });

  const run = await cli(['check'], {
    LEDGER_MM_BASE_URL: urls.baseUrl,
    LEDGER_MM_SUBMIT_URL: urls.submitUrl,
    LEDGER_MM_API_KEY: apiKey,
    LEDGER_MM_SIGNING_KEY_FILE: keyFile,
    LEDGER_MM_PAIRS: 'BTC/USDC',
  });
  expect(run.out).toMatch(/PASS\s+signing key\s+fingerprint 1220[0-9a-f]{64} matches party/);
  expect(run.out).not.toMatch(/FAIL/);
  expect(run.code).toBe(0);
});
