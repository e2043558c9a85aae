/** raceAbort: the call's result, or the abort's error as soon as the signal aborts. */
import { describe, expect, it } from 'vitest';

import { raceAbort } from '../../src/core/abort-race.js';

const never = (): Promise<string> => new Promise<string>(() => undefined);

describe('raceAbort', () => {
  it("settles with the call's result or its rejection", async () => {
    const c = new AbortController();
    await expect(
      raceAbort(
        () => Promise.resolve('ok'),
        c.signal,
        () => new Error('x'),
      ),
    ).resolves.toBe('ok');
    await expect(
      raceAbort(
        () => Promise.reject(new Error('failed')),
        c.signal,
        () => new Error('x'),
      ),
    ).rejects.toThrow('failed');
  });

  it('an aborted signal rejects with onAbort(true) and never makes the call', async () => {
    const c = new AbortController();
    c.abort();
    let called = false;
    const p = raceAbort(
      () => {
        called = true;
        return never();
      },
      c.signal,
      (before) => new Error(`before=${before}`),
    );
    await expect(p).rejects.toThrow('before=true');
    expect(called).toBe(false);
  });

  it('an abort in flight rejects with onAbort(false) at once, and a later result is dropped', async () => {
    const c = new AbortController();
    let finish: (v: string) => void = () => undefined;
    const p = raceAbort(
      () => new Promise<string>((r) => (finish = r)),
      c.signal,
      (before) => new Error(`before=${before}`),
    );
    c.abort();
    finish('late');
    await expect(p).rejects.toThrow('before=false');
  });
});
