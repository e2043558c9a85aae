import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { onLines } from '../../support/line-reader.js';

/**
 * The real `ledger-mm` CLI as a child process. Node 20 cannot run TypeScript and no TS runner is
 * installed, so `src/cli/main.ts` is bundled with rolldown (vite's bundler, already in
 * node_modules; under a second) with every package left external. The bundle goes two levels
 * under the repository (`node_modules/.ledger-mm-cli-<pid>/`), where the code's own
 * `../../config/*.json` paths and the bare imports resolve as they do from `dist/cli/`.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Bundles the CLI; returns the entry's path and a cleanup. */
export async function bundleCli(): Promise<{ main: string; dispose: () => void }> {
  const rolldown = (await import('rolldown')) as {
    build: (options: Record<string, unknown>) => Promise<unknown>;
  };
  const dir = path.join(repoRoot, 'node_modules', `.ledger-mm-cli-${process.pid}`);
  await rolldown.build({
    input: path.join(repoRoot, 'src/cli/main.ts'),
    cwd: repoRoot,
    platform: 'node',
    logLevel: 'warn',
    external: [/^[^./]/],
    output: { dir, format: 'esm', entryFileNames: 'main.mjs' },
    write: true,
  });
  return {
    main: path.join(dir, 'main.mjs'),
    dispose: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** A free TCP port on 127.0.0.1 (bound, then released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** A spawned CLI process whose stdout is JSON log lines. */
export interface CliChild {
  readonly proc: ChildProcess;
  readonly pid: number;
  /** Every JSON line so far (non-JSON lines are kept as `{ text }`). */
  readonly lines: Record<string, unknown>[];
  stderr(): string;
  /** Resolves once it exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawns `node <main> ...args` in `cwd` with `env` (added to a minimal environment). */
export function spawnCli(main: string, args: string[], env: Record<string, string>, cwd: string): CliChild {
  const proc = spawn(process.execPath, [main, ...args], {
    cwd,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  let err = '';
  onLines(proc.stdout, (line) => {
    try {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      lines.push({ text: line });
    }
  });
  proc.stderr.setEncoding('utf8');
  proc.stderr.on('data', (chunk: string) => (err = (err + chunk).slice(-20_000)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('close', (code, signal) => resolve({ code, signal })),
  );
  return { proc, pid: proc.pid!, lines, stderr: () => err, exited };
}

/** Polls `cond` every `everyMs` until it holds; throws `what` after `timeoutMs`. */
export async function waitUntil(
  what: string,
  cond: () => boolean | Promise<boolean>,
  timeoutMs: number,
  everyMs = 50,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await cond()) return;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Reads one sample of `/metrics` at `url`: the value of `name{labels}` (sum over series matching). */
export async function metricValue(
  url: string,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const text = await (await fetch(url, { signal: AbortSignal.timeout(2_000) })).text();
  let sum = 0;
  let found = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (m === null || m[1] !== name) continue;
    const ls = m[2] ?? '';
    if (!Object.entries(labels).every(([k, v]) => ls.includes(`${k}="${v}"`))) continue;
    sum += Number(m[3]);
    found = true;
  }
  if (!found) throw new Error(`${name} not in ${url}`);
  return sum;
}
