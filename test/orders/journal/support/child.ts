import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { onLines } from '../../../support/line-reader.js';

/**
 * Child processes for the lock and crash tests. Node 20 cannot run TypeScript, and no TS runner
 * is installed, so a fixture entry is bundled with rolldown (vite's bundler, already in
 * node_modules; ~25 ms) into a temporary .mjs that imports the native better-sqlite3 by absolute
 * path. The child runs the real journal code from `src/`.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../../..');

/** True when this process may give a child its own hostname (`unshare --uts` needs root). */
export function canUnshareUts(): boolean {
  const r = spawnSync('unshare', ['--uts', 'true'], { stdio: 'ignore' });
  return r.status === 0;
}

/** Bundles `test/orders/journal/support/<name>.ts`; returns the .mjs path and a cleanup. */
export async function bundleFixture(name: string): Promise<{ file: string; dispose: () => void }> {
  // rolldown is a transitive dependency (via vitest → vite); typed loosely on purpose.
  const rolldown = (await import('rolldown')) as {
    build: (options: Record<string, unknown>) => Promise<unknown>;
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-mm-journal-child-'));
  const file = path.join(dir, `${name}.mjs`);
  // Both drivers (src/orders/journal/sqlite-driver.ts picks one by the Node version).
  const resolve = createRequire(path.join(repoRoot, 'package.json')).resolve;
  const drivers = {
    'better-sqlite3': resolve('better-sqlite3'),
    'better-sqlite3-v12': resolve('better-sqlite3-v12'),
  };
  await rolldown.build({
    input: path.join(here, `${name}.ts`),
    cwd: repoRoot,
    platform: 'node',
    logLevel: 'warn',
    external: Object.keys(drivers),
    output: { file, format: 'esm', paths: drivers },
    write: true,
  });
  return { file, dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** A spawned child whose stdout is split into JSON lines. */
export interface Child {
  readonly proc: ChildProcess;
  /** Every JSON line received so far. */
  readonly lines: unknown[];
  /** Resolves with the first line satisfying `pred` (rejects if the child exits first). */
  waitFor(pred: (line: unknown) => boolean, timeoutMs?: number): Promise<unknown>;
  /** Resolves when the child has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/**
 * Spawns `node <file> ...args`; with `hostname`, in a UTS namespace of its own under that hostname
 * (`unshare --uts`, root only): another "host" on the same kernel and filesystem.
 */
export function spawnChild(file: string, args: string[], opts: { hostname?: string } = {}): Child {
  const proc =
    opts.hostname === undefined
      ? spawn(process.execPath, [file, ...args], { stdio: ['pipe', 'pipe', 'pipe'] })
      : spawn(
          'unshare',
          ['--uts', 'sh', '-c', 'hostname "$0" && exec "$@"', opts.hostname, process.execPath, file, ...args],
          { stdio: ['pipe', 'pipe', 'pipe'] },
        );
  const lines: unknown[] = [];
  const waiters = new Set<() => void>();
  let stderr = '';
  let done = false;
  onLines(
    proc.stdout,
    (line) => lines.push(JSON.parse(line)),
    () => {
      for (const w of [...waiters]) w();
    },
  );
  proc.stderr.setEncoding('utf8');
  proc.stderr.on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve) => {
      // 'close' fires after stdio is drained, so every line written before death is in `lines`.
      proc.on('close', (code, signal) => {
        done = true;
        for (const w of [...waiters]) w();
        resolve({ code, signal, stderr });
      });
    },
  );
  const waitFor = (pred: (line: unknown) => boolean, timeoutMs = 10_000): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => finish(() => reject(new Error(`child: timed out; stderr: ${stderr}`))),
        timeoutMs,
      );
      const finish = (f: () => void): void => {
        clearTimeout(timer);
        waiters.delete(check);
        f();
      };
      const check = (): void => {
        const hit = lines.find(pred);
        if (hit !== undefined) finish(() => resolve(hit));
        else if (done)
          finish(() => reject(new Error(`child exited before the expected line; stderr: ${stderr}`)));
      };
      waiters.add(check);
      check();
    });
  return { proc, lines, waitFor, exited };
}
