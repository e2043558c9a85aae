import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CommandIo } from '../../src/cli/command.js';
import { runCli } from '../../src/cli/run-cli.js';
import { runSimVenue } from '../../src/cli/sim-venue.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-mm-check-sim-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function capture(env: NodeJS.ProcessEnv): CommandIo & { text: () => string } {
  let out = '';
  return {
    stdout: (t) => (out += t),
    stderr: (t) => (out += t),
    env,
    cwd: dir,
    text: () => out,
  };
}

/** The `export NAME=value` lines a command printed, as an environment. */
function exportedEnv(text: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const m of text.matchAll(/^\s*export (LEDGER_MM_[A-Z_]+)=(\S+)$/gm)) env[m[1]!] = m[2]!;
  return env;
}

it('the export lines sim-venue prints are all check needs: every check passes, the key matches the party', async () => {
  const simIo = capture({});
  let release!: () => void;
  const stop = new Promise<void>((r) => (release = r));
  let check: Promise<{ code: number; out: string }> | undefined;
  const code = runSimVenue(
    ['--port', '0', '--submit-port', '0', '--latency', 'instant', '--no-market', '--key-out', 'sim.key'],
    simIo,
    () => stop,
    () => {
      const env = exportedEnv(simIo.text());
      const checkIo = capture(env);
      check = runCli(['check'], checkIo)
        .then((c) => ({ code: c, out: checkIo.text() }))
        .finally(release);
    },
  );
  expect(await code).toBe(0);
  const env = exportedEnv(simIo.text());
  expect(Object.keys(env).sort()).toEqual([
    'LEDGER_MM_API_KEY',
    'LEDGER_MM_BASE_URL',
    'LEDGER_MM_PAIRS',
    'LEDGER_MM_SIGNING_KEY_FILE',
    'LEDGER_MM_SUBMIT_URL',
  ]);
  const run = await check!;
  expect(run.out).toMatch(
    /PASS\s+signing key\s+fingerprint 1220[0-9a-f]{64} matches party examplemm-mm::1220/,
  );
  expect(run.out).toMatch(
    /PASS\s+pairs\s+BTC\/USDC minQuoteAmount 10 USDC; ETH\/USDC minQuoteAmount 10 USDC/,
  );
  expect(run.out).not.toMatch(/FAIL|WARN|SKIP/);
  expect(run.code).toBe(0);
});
