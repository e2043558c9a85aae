import { describe, expect, it } from 'vitest';
import { isLoopback } from '../../src/sim/http-face.js';
import { startSimHarness } from '../support/sim-harness.js';

describe('HTTP face', () => {
  it('serves the trade API under /v1 and the submission host at /submit on separate ports', async () => {
    const h = await startSimHarness();
    expect(new URL(h.baseUrl).pathname).toBe('/v1');
    expect(new URL(h.submitUrl).pathname).toBe('/submit');
    expect(new URL(h.baseUrl).port).not.toBe(new URL(h.submitUrl).port);
    expect(new URL(h.baseUrl).hostname).toBe('127.0.0.1');
    // The trade API is not on the submission host and vice versa.
    expect((await fetch(h.submitUrl.replace('/submit', '/v1/pairs'))).status).toBe(404);
    expect((await fetch(h.baseUrl.replace('/v1', '/submit'), { method: 'POST', body: '{}' })).status).toBe(
      404,
    );
    await h.close();
  });

  it('a hanging answer ends when the client gives up, recorded as aborted; close() drops the rest', async () => {
    const h = await startSimHarness();
    h.venue.addFault({ kind: 'hang', endpoint: 'account', at: 1, times: 2 });
    await expect(
      fetch(`${h.baseUrl}/account`, {
        headers: { authorization: `Bearer ${h.apiKey}` },
        signal: AbortSignal.timeout(100),
      }),
    ).rejects.toMatchObject({ name: 'TimeoutError' });
    for (let i = 0; i < 50 && h.venue.truth.calls()[0]!.endedAt === null; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(h.venue.truth.calls()[0]).toMatchObject({ clientAborted: true, status: 504 });
    const second = fetch(`${h.baseUrl}/account`, { headers: { authorization: `Bearer ${h.apiKey}` } }).catch(
      () => 'dropped',
    );
    await new Promise((r) => setTimeout(r, 20));
    const started = Date.now();
    await h.close();
    expect(await second).toBe('dropped');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('admits only loopback peers to /admin', () => {
    expect(['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'].every(isLoopback)).toBe(true);
    expect(['10.0.0.1', '::ffff:10.0.0.1', '192.168.1.2', undefined].some(isLoopback)).toBe(false);
  });
});
