import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreLockedError, readStoreLock, storeLockHeld } from '../../../src/orders/journal/index.js';
import { acquireStoreLock, lockDatabasePath } from '../../../src/orders/journal/store-lock.js';
import { bundleFixture, canUnshareUts, spawnChild } from './support/child.js';
import { useTempStores } from './support/temp-store.js';
import { thrownBy as caught } from '../../support/thrown.js';

const stores = useTempStores();

/** The pid of a process that has already exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid;
}

function writeNote(storePath: string, holder: Record<string, unknown> | string): void {
  fs.mkdirSync(storePath.slice(0, storePath.lastIndexOf('/')), { recursive: true });
  fs.writeFileSync(`${storePath}.lock`, typeof holder === 'string' ? holder : JSON.stringify(holder));
}

describe('store lock: in process', () => {
  it('refuses a second open of the same store with a clear StoreLockedError', () => {
    const path = stores.tempStore();
    stores.open(path);
    const err = caught(() => stores.open(path));
    expect(err).toBeInstanceOf(StoreLockedError);
    const locked = err as StoreLockedError;
    expect(locked.path).toBe(path);
    expect(locked.holder?.pid).toBe(process.pid);
    expect(locked.message).toContain(path);
    expect(locked.message).toContain(`pid ${process.pid}`);
    expect(locked.message).toMatch(/one signer per party/);
  });

  it('writes pid and host into the note, holds the kernel lock, and frees both on close', () => {
    const path = stores.tempStore();
    expect(storeLockHeld(path)).toBe(false);
    const j = stores.open(path);
    expect(readStoreLock(path)).toMatchObject({ pid: process.pid, host: os.hostname() });
    expect(storeLockHeld(path)).toBe(true);
    expect(j.staleLock).toBeNull();
    j.close();
    expect(fs.existsSync(`${path}.lock`)).toBe(false);
    expect(storeLockHeld(path)).toBe(false);
    // The lock database stays: a process may be waiting on that inode.
    expect(fs.existsSync(lockDatabasePath(path))).toBe(true);
    stores.open(path);
  });

  it.each([
    ['a dead pid on this host (kill -9)', () => ({ pid: deadPid(), host: os.hostname() })],
    ['our own pid (a restarted container, pid 1 again)', () => ({ pid: process.pid, host: os.hostname() })],
    [
      'another host (a recreated container has a new hostname)',
      () => ({ pid: 1, host: 'old-container-4f2a' }),
    ],
  ])('takes over a note left by %s: the kernel lock is free, so its writer is gone', (_, who) => {
    const path = stores.tempStore();
    const holder = { ...who(), startedAt: 1, nonce: 'old' };
    writeNote(path, holder);
    const j = stores.open(path);
    expect(j.staleLock).toMatchObject(holder);
    expect(readStoreLock(path)).toMatchObject({ pid: process.pid, host: os.hostname() });
    expect(JSON.parse(j.getMeta(`run.${j.getMeta('run_counter')}`)!)).toMatchObject({
      staleLockPid: holder.pid,
    });
    expect(() => stores.open(path)).toThrow(StoreLockedError);
  });

  it('takes over an unreadable note (a crash while writing it)', () => {
    const path = stores.tempStore();
    writeNote(path, '{"pid": 12');
    expect(stores.open(path).staleLock).toBeNull();
    expect(readStoreLock(path)?.pid).toBe(process.pid);
  });

  it('does not delete a note that is no longer its own on release, but drops the kernel lock', () => {
    const path = stores.tempStore();
    fs.mkdirSync(path.slice(0, path.lastIndexOf('/')), { recursive: true });
    const lock = acquireStoreLock(path);
    writeNote(path, { pid: process.pid, host: os.hostname(), startedAt: 2, nonce: 'someone-else' });
    lock.release();
    expect(readStoreLock(path)?.nonce).toBe('someone-else');
    expect(storeLockHeld(path)).toBe(false);
  });
});

describe('store lock: across processes', () => {
  let probe: { file: string; dispose: () => void };
  beforeAll(async () => {
    probe = await bundleFixture('lock-probe');
  });
  afterAll(() => probe.dispose());

  it('refuses the parent while a child holds the store, and frees it when the child closes', async () => {
    const path = stores.tempStore();
    const child = spawnChild(probe.file, [path, 'hold']);
    await child.waitFor((l) => (l as { event: string }).event === 'held');
    expect(storeLockHeld(path)).toBe(true);
    const err = caught(() => stores.open(path)) as StoreLockedError;
    expect(err).toBeInstanceOf(StoreLockedError);
    expect(err.holder?.pid).toBe(child.proc.pid);
    expect(err.message).toContain(`pid ${child.proc.pid}`);
    child.proc.stdin?.end();
    await child.waitFor((l) => (l as { event: string }).event === 'released');
    await child.exited;
    expect(stores.open(path).staleLock).toBeNull();
  });

  it('refuses a child while the parent holds the store', async () => {
    const path = stores.tempStore();
    stores.open(path);
    const child = spawnChild(probe.file, [path, 'try']);
    const line = (await child.waitFor((l) => (l as { event: string }).event !== undefined)) as Record<
      string,
      unknown
    >;
    expect(line).toMatchObject({ event: 'refused', name: 'StoreLockedError', path, holderPid: process.pid });
    expect(line.message).toContain(`locked by pid ${process.pid}`);
    expect((await child.exited).code).toBe(0);
  });

  it('takes over the lock of a child killed with SIGKILL', async () => {
    const path = stores.tempStore();
    const child = spawnChild(probe.file, [path, 'hold']);
    await child.waitFor((l) => (l as { event: string }).event === 'held');
    child.proc.kill('SIGKILL');
    expect((await child.exited).signal).toBe('SIGKILL');
    expect(readStoreLock(path)?.pid).toBe(child.proc.pid);
    expect(storeLockHeld(path)).toBe(false);
    expect(stores.open(path).staleLock?.pid).toBe(child.proc.pid);
  });

  // Two "hosts" on one volume: UTS namespaces give each process its own hostname on the same
  // kernel and filesystem, as two containers on one node sharing a volume are.
  describe.skipIf(!canUnshareUts())('under another hostname (unshare --uts)', () => {
    it('refuses a live holder on another host, and takes over once it is killed', async () => {
      const path = stores.tempStore();
      const child = spawnChild(probe.file, [path, 'hold'], { hostname: 'ledger-mm-old-pod' });
      const held = (await child.waitFor((l) => (l as { event: string }).event === 'held')) as {
        host: string;
      };
      expect(held.host).toBe('ledger-mm-old-pod');
      const err = caught(() => stores.open(path)) as StoreLockedError;
      expect(err).toBeInstanceOf(StoreLockedError);
      expect(err.holder).toMatchObject({ pid: child.proc.pid, host: 'ledger-mm-old-pod' });
      child.proc.kill('SIGKILL');
      expect((await child.exited).signal).toBe('SIGKILL');
      const j = stores.open(path);
      expect(j.staleLock).toMatchObject({ pid: child.proc.pid, host: 'ledger-mm-old-pod' });
    });

    it('refuses a second live daemon on another host while this one holds the store', async () => {
      const path = stores.tempStore();
      stores.open(path);
      const child = spawnChild(probe.file, [path, 'try'], { hostname: 'ledger-mm-other-node' });
      const line = await child.waitFor((l) => (l as { event: string }).event !== undefined);
      expect(line).toMatchObject({
        event: 'refused',
        host: 'ledger-mm-other-node',
        holderPid: process.pid,
        holderHost: os.hostname(),
      });
    });
  });
});
