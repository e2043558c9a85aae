/**
 * The CPU clear signing adds per placement and per cancel: decoding the prepared transaction,
 * recomputing its V2 hash with the Canton library, and checking parties and intent. Measured on
 * the simulated venue's own prepare responses (captured by {@link capturingTransport} during the
 * placement bench), one verification at a time after the run, so nothing else shares the CPU
 * while the clock runs.
 */
import { dec } from '../../core/decimal.js';
import { decodePrepared, hashPrepared } from '../../signing/canton-hash.js';
import type { PreparedExpectation } from '../../signing/prepared-checks.js';
import { PreparedVerifier, type PreparedEnvelope } from '../../signing/prepared-verifier.js';
import type { Transport } from '../../venue/transport.js';

/** One prepare response to verify again, with what it was for. */
export interface VerifySample {
  readonly envelope: PreparedEnvelope;
  readonly expected: PreparedExpectation;
}

/** µs of CPU per verification, and its decode and hash parts. */
export interface VerifyFigures {
  readonly placements: number;
  readonly cancels: number;
  /** Whole verification (decode, hash, parties, intent), µs. */
  readonly placementUs: number;
  readonly cancelUs: number;
  /** Of a placement's: the protobuf decode and the V2 hash alone, µs. */
  readonly decodeUs: number;
  readonly hashUs: number;
  /** Verifications that did not verify (must be 0: the venue is honest here). */
  readonly failures: number;
}

interface Captured {
  readonly placements: VerifySample[];
  readonly cancels: VerifySample[];
}

/**
 * Wraps the venue transport and keeps up to `max` placement and `max` cancel prepare responses
 * (202 with a signing envelope) as samples.
 */
export function capturingTransport(
  inner: Transport,
  max: number,
): { transport: Transport; captured: Captured } {
  const captured: Captured = { placements: [], cancels: [] };
  const transport: Transport = {
    request: async (req) => {
      const res = await inner.request(req);
      if (req.method !== 'POST' || res.status !== 202) return res;
      const cancel = /\/orders\/([^/]+)\/cancel$/.exec(req.url.pathname);
      const isPlace = /\/orders$/.test(req.url.pathname);
      const into = cancel ? captured.cancels : isPlace ? captured.placements : null;
      if (into === null || into.length >= max) return res;
      const data = (
        JSON.parse(res.body) as { data: { order: Record<string, string>; signing: PreparedEnvelope } }
      ).data;
      const o = data.order;
      into.push({
        envelope: data.signing,
        expected: cancel
          ? { kind: 'cancel', contractId: decodeURIComponent(cancel[1]!) }
          : {
              kind: 'place',
              pair: o['pair']!,
              side: o['side'] === 'SELL' ? 'SELL' : 'BUY',
              price: o['price'] == null ? null : dec(o['price']),
              quantity: dec(o['quantity']!),
            },
      });
      return res;
    },
    close: () => inner.close(),
  };
  return { transport, captured };
}

async function cpuPer(n: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) await fn(i);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / Math.max(1, n);
}

/** Verifies every sample `rounds` times (after one warm-up round) and reports µs per verification. */
export async function measureVerify(captured: Captured, partyId: string, rounds = 5): Promise<VerifyFigures> {
  const verifier = new PreparedVerifier({ policy: 'required', partyId });
  let failures = 0;
  const run = async (samples: readonly VerifySample[]): Promise<number> => {
    const n = samples.length * rounds;
    if (n === 0) return 0;
    for (const s of samples)
      if ((await verifier.verify(s.envelope, s.expected)).kind !== 'verified') failures += 1;
    return cpuPer(n, (i) =>
      verifier.verify(samples[i % samples.length]!.envelope, samples[i % samples.length]!.expected),
    );
  };
  const placementUs = await run(captured.placements);
  const cancelUs = await run(captured.cancels);
  const txs = captured.placements.map((s) => verifier.transactionOf(s.envelope) ?? '');
  const n = txs.length * rounds;
  const decodeUs = n === 0 ? 0 : await cpuPer(n, async (i) => decodePrepared(txs[i % txs.length]!));
  const decoded = txs.map((t) => decodePrepared(t));
  const hashUs = n === 0 ? 0 : await cpuPer(n, (i) => hashPrepared(decoded[i % decoded.length]!, 'V2'));
  return {
    placements: captured.placements.length,
    cancels: captured.cancels.length,
    placementUs,
    cancelUs,
    decodeUs,
    hashUs,
    failures,
  };
}
