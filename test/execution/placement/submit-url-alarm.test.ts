import { afterEach, expect, it } from 'vitest';
import type { TransportRequest, TransportResponse } from '../../../src/venue/transport.js';
import { buy, execHarness, type ExecHarness } from '../support/exec-harness.js';
import { editData, isPlacementPrepare, rewritingTransport } from '../support/transports.js';

/**
 * A prepare whose `signing.submitUrl` points at a foreign host: the client refuses to send the
 * signed transaction there (nothing leaves the process), and the pipeline raises the same alarm
 * as a tampered echo — the `echo-refused` event behind `echo_refused_total` and the
 * `echo-mismatch` execution alarm — not a warning.
 */

let h: ExecHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function foreignSubmitUrl(req: TransportRequest, res: TransportResponse): TransportResponse | undefined {
  if (!isPlacementPrepare(req) || res.status !== 202) return undefined;
  return editData(res, (data) => {
    (data['signing'] as Record<string, unknown>)['submitUrl'] = 'https://submit.attacker.example/submit';
  });
}

it('a foreign submitUrl is refused unsent and raises the tampered-echo alarm', async () => {
  h = execHarness({ wrap: (inner) => rewritingTransport(inner, foreignSubmitUrl) });
  const out = await h.settle(h.pipeline.place(buy('s-a')));

  expect(out).toMatchObject({ kind: 'refused', code: 'CLIENT_SUBMIT_URL_REFUSED' });
  expect(h.eventsOf('echo-refused')).toMatchObject([{ operation: 'place', key: out.key }]);
  expect(h.eventsOf('alarm')).toMatchObject([{ reason: 'echo-mismatch', key: out.key }]);
  expect(String(h.eventsOf('alarm')[0]!.detail)).toContain('refused before sending');
  // Nothing reached the venue's submission host.
  expect(h.venue.truth.submits()).toHaveLength(0);
});
