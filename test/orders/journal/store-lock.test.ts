import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreLockedError, readStoreLock } from '../../../src/orders/journal/index.js';
import { acquireStoreLock, isAlive } from '../../../src/orders/journal/store-lock.js';
import { bundleFixture, spawnChild } from './helpers/child.js';
import { useTempStores } from './helpers/temp-store.js';

const stores = useTempStores();

/** The pid of a process that has already exited. */
function deadPid(): number {
  const pid = spawnSync(process.execPath, ['-e', '']).pid;
  expect(isAlive(pid)).toBe(false);
  return pid;
}

function writeLock(storePath: string, holder: Record<string, unknown> | string): void {
  fs.mkdirSync(storePath.slice(0, storePath.lastIndexOf('/')), { recursive: true });
  fs.writeFileSync(`${storePath}.lock`, typeof holder === 'string' ? holder : JSON.stringify(holder));
}

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
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

  it('writes pid, host and start time into the lock and removes it on close', () => {
    const path = stores.tempStore();
    const j = stores.open(path);
    expect(readStoreLock(path)).toMatchObject({ pid: process.pid, host: os.hostname() });
    expect(j.staleLock).toBeNull();
    j.close();
    expect(fs.existsSync(`${path}.lock`)).toBe(false);
    stores.open(path);
  });

  it('takes over a lock whose pid is dead and says so', () => {
    const path = stores.tempStore();
    const pid = deadPid();
    writeLock(path, { pid, host: os.hostname(), startedAt: 1, nonce: 'old' });
    const j = stores.open(path);
    expect(j.staleLock).toMatchObject({ pid, nonce: 'old' });
    expect(readStoreLock(path)?.pid).toBe(process.pid);
    expect(JSON.parse(j.getMeta(`run.${j.getMeta('run_counter')}`)!)).toMatchObject({ staleLockPid: pid });
  });

  it('takes over a lock with our own pid that this process does not hold (a restarted container)', () => {
    const path = stores.tempStore();
    writeLock(path, { pid: process.pid, host: os.hostname(), startedAt: 1, nonce: 'previous-incarnation' });
    const j = stores.open(path);
    expect(j.staleLock).toMatchObject({ pid: process.pid, nonce: 'previous-incarnation' });
    expect(() => stores.open(path)).toThrow(StoreLockedError);
  });

  it('never takes over a lock written on another host', () => {
    const path = stores.tempStore();
    writeLock(path, { pid: deadPid(), host: `not-${os.hostname()}`, startedAt: 1, nonce: 'x' });
    expect(() => stores.open(path)).toThrow(StoreLockedError);
  });

  it('treats a fresh unreadable lock as held and an old one as a crash leftover', () => {
    const path = stores.tempStore();
    writeLock(path, '');
    const err = caught(() => stores.open(path)) as StoreLockedError;
    expect(err).toBeInstanceOf(StoreLockedError);
    expect(err.holder).toBeNull();
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(`${path}.lock`, old, old);
    expect(stores.open(path).staleLock).toBeNull();
  });

  it('does not delete a lock that is no longer its own on release', () => {
    const path = stores.tempStore();
    fs.mkdirSync(path.slice(0, path.lastIndexOf('/')), { recursive: true });
    const lock = acquireStoreLock(path);
    writeLock(path, { pid: process.pid, host: os.hostname(), startedAt: 2, nonce: 'someone-else' });
    lock.release();
    expect(readStoreLock(path)?.nonce).toBe('someone-else');
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
    expect(stores.open(path).staleLock?.pid).toBe(child.proc.pid);
  });
});
