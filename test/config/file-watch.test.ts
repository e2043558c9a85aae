import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fsWatcher } from '../../src/config/reload.js';

/**
 * The real `fs.watch` watcher against the ways a config or key file changes in production:
 * written in place, replaced by a rename (editors), and Kubernetes' atomic writer, which mounts a
 * ConfigMap or Secret as `name -> ..data/name`, `..data -> ..<timestamp>` and updates it by
 * writing a new timestamped directory, swapping `..data` with a rename and deleting the old one.
 */

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-mm-watch-'));
  dirs.push(d);
  return d;
}

/** Waits (bounded) until `count()` exceeds `before`. */
async function changed(count: () => number, before: number): Promise<void> {
  for (let i = 0; i < 100 && count() <= before; i++) await new Promise((r) => setTimeout(r, 20));
  expect(count(), 'the watcher saw the change').toBeGreaterThan(before);
}

/** Kubernetes' atomic writer: a new `..<n>` directory, `..data` swapped to it, the old one deleted. */
function kubeletUpdate(dir: string, name: string, content: string, n: number): void {
  const next = path.join(dir, `..2026_11_26_${n}`);
  fs.mkdirSync(next);
  fs.writeFileSync(path.join(next, name), content);
  const old = fs.existsSync(path.join(dir, '..data')) ? fs.readlinkSync(path.join(dir, '..data')) : null;
  fs.symlinkSync(path.basename(next), path.join(dir, '..data_tmp'));
  fs.renameSync(path.join(dir, '..data_tmp'), path.join(dir, '..data'));
  if (!fs.existsSync(path.join(dir, name))) fs.symlinkSync(path.join('..data', name), path.join(dir, name));
  if (old !== null) fs.rmSync(path.join(dir, old), { recursive: true, force: true });
}

/** Watches a fresh `ledger-mm.json` (`{}`) in a temp dir while `body` runs; `calls()` counts the callbacks. */
async function watchingFreshFile(
  body: (file: string, dir: string, calls: () => number) => Promise<void>,
): Promise<void> {
  const dir = tempDir();
  const file = path.join(dir, 'ledger-mm.json');
  fs.writeFileSync(file, '{}');
  let n = 0;
  const w = fsWatcher(file, () => n++);
  try {
    await body(file, dir, () => n);
  } finally {
    w.close();
  }
}

describe('fsWatcher', () => {
  it('sees a file written in place and a file replaced by a rename, again and again', async () => {
    await watchingFreshFile(async (file, _dir, calls) => {
      for (let round = 0; round < 3; round++) {
        let before = calls();
        fs.writeFileSync(file, `{"round": ${round}}`);
        await changed(calls, before);
        before = calls();
        fs.writeFileSync(`${file}.tmp`, `{"renamed": ${round}}`);
        fs.renameSync(`${file}.tmp`, file);
        await changed(calls, before);
      }
    });
  });

  it('sees every update of a Kubernetes ConfigMap or Secret volume (the ..data swap), not only the first', async () => {
    const dir = tempDir();
    kubeletUpdate(dir, 'ledger-mm.json', '{"v": 0}', 0);
    const file = path.join(dir, 'ledger-mm.json');
    let n = 0;
    const w = fsWatcher(file, () => n++);
    try {
      for (let v = 1; v <= 3; v++) {
        const before = n;
        kubeletUpdate(dir, 'ledger-mm.json', `{"v": ${v}}`, v);
        await changed(() => n, before);
        expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ v });
      }
    } finally {
      w.close();
    }
  });

  it('ignores other files of the directory', async () => {
    await watchingFreshFile(async (_file, dir, calls) => {
      fs.writeFileSync(path.join(dir, 'other.json'), '{}');
      fs.writeFileSync(path.join(dir, 'other.json'), '{"x": 1}');
      await new Promise((r) => setTimeout(r, 300));
      expect(calls()).toBe(0);
    });
  });
});
