import { describe, expect, it } from 'vitest';
import { MarketConfigSchema } from '../../../src/sim/market/market-config.js';
import { MarketModel } from '../../../src/sim/market/market-model.js';
import { LookaheadReference } from '../../../src/sim/market/reference-source.js';
import { ReferencePriceWalk } from '../../../src/sim/market/reference-price.js';
import { Rng } from '../../../src/sim/rng.js';
import { HOUR_MS, newFakeClock, num, RecordingPort } from './support/recording-port.js';

/** One BTC/USDC pair for `ms`, every taker filled in full; returns the port's record. */
function run(pair: Record<string, unknown>, ms: number, seed = 77) {
  const { fake, clock } = newFakeClock();
  const port = new RecordingPort(clock, ['BTC/USDC'], (c) => c.quantity);
  const config = MarketConfigSchema.parse({
    pairs: {
      'BTC/USDC': {
        initialPrice: '60000',
        background: { enabled: false, sizeBase: '1' },
        ...pair,
        takers: { meanSizeBase: '0.05', A: 0.5, ...(pair['takers'] as object) },
      },
    },
  });
  const model = new MarketModel({ port, clock, rng: new Rng(seed), config });
  model.start();
  fake.tick(ms);
  model.close();
  return port;
}

/** Each taker's markout in bps at `horizonMs` (positive: the reference moved the taker's way). */
function takerMarkoutsBps(port: RecordingPort, horizonMs: number): number[] {
  const refAt = new Map(port.references.map((r) => [r.at, num(r.price)]));
  const last = port.references[port.references.length - 1]!.at;
  return port.takes
    .filter((t) => t.at + horizonMs <= last)
    .map((t) => {
      const now = num(t.reference);
      // References are published each whole second: take the one at or just before the horizon.
      const later = refAt.get(Math.floor((t.at + horizonMs) / 1000) * 1000)!;
      return (t.side === 'BUY' ? 1 : -1) * ((later - now) / now) * 10_000;
    });
}

const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

describe('informed takers', () => {
  const horizonMs = 30_000;
  const hours = 6 * HOUR_MS;
  const noise = takerMarkoutsBps(run({ takers: { informedShare: 0 } }, hours), horizonMs);
  const half = takerMarkoutsBps(
    run({ takers: { informedShare: 0.5, informedHorizonMs: horizonMs } }, hours),
    horizonMs,
  );
  const all = takerMarkoutsBps(
    run({ takers: { informedShare: 1, informedHorizonMs: horizonMs } }, hours),
    horizonMs,
  );

  it('noise takers have a markout of about zero; informed ones gain (the maker loses) in proportion to the share', () => {
    expect(noise.length).toBeGreaterThan(9000);
    // σ = 0.6 a year over 30 s: about 5.9 bps a move; the mean of ~10 800 draws has an error of ~0.06.
    expect(Math.abs(mean(noise))).toBeLessThan(0.3);
    expect(mean(all)).toBeGreaterThan(3.5);
    expect(mean(half)).toBeGreaterThan(mean(all) * 0.35);
    expect(mean(half)).toBeLessThan(mean(all) * 0.65);
    // Fully informed: nearly every taker is on the right side of its horizon's move.
    expect(all.filter((m) => m > 0).length / all.length).toBeGreaterThan(0.95);
  });

  it('change sides only: arrivals, sizes and limits distance are the noise takers’ own draws', () => {
    const a = run({ takers: { informedShare: 0 } }, HOUR_MS);
    const b = run({ takers: { informedShare: 1 } }, HOUR_MS);
    expect(b.takes.map((t) => [t.at, t.quantity.toString()])).toEqual(
      a.takes.map((t) => [t.at, t.quantity.toString()]),
    );
    expect(b.takes.map((t) => t.side)).not.toEqual(a.takes.map((t) => t.side));
    // The reference the venue sees is the same path with or without look-ahead.
    expect(b.references).toEqual(a.references);
  });

  it('are deterministic by seed', () => {
    const cfg = { takers: { informedShare: 0.3 }, jumps: { enabled: true }, garch: { enabled: true } };
    expect(run(cfg, HOUR_MS, 5).log).toEqual(run(cfg, HOUR_MS, 5).log);
    expect(run(cfg, HOUR_MS, 5).log).not.toEqual(run(cfg, HOUR_MS, 6).log);
  });
});

describe('LookaheadReference', () => {
  it('publishes the walk’s own path and sees its future', () => {
    const walk = (): ReferencePriceWalk =>
      new ReferencePriceWalk({
        initialPrice: 100,
        volatility: 0.8,
        drift: 0,
        priceDecimals: 4,
        rng: new Rng(1),
      });
    const plain = walk();
    const ahead = new LookaheadReference(walk(), 1000, 5000, 4);
    const path = [plain.price, ...Array.from({ length: 50 }, () => plain.step(1000))];
    expect(ahead.ahead(3000)).toBe(path[3]);
    for (let i = 1; i <= 40; i++) {
      expect(ahead.step(1000)).toBe(path[i]);
      expect(ahead.ahead(5000)).toBe(path[i + 5]);
    }
  });
});

describe('background makers with a lag and noise', () => {
  /** Book mid against the reference published `lagMs` earlier and now, bps. */
  function offsets(background: Record<string, unknown>) {
    const port = run(
      { background: { sizeBase: '1', refreshMs: 5000, ...background }, volatility: 2 },
      HOUR_MS,
    );
    return port.backgrounds.slice(2).map((b) => {
      const mid = (num(b.bids[0]![0]) + num(b.asks[0]![0])) / 2;
      return { mid, now: num(b.reference) };
    });
  }

  it('without lag or noise the book is centred on the current reference', () => {
    const xs = offsets({});
    expect(xs.length).toBeGreaterThan(600);
    expect(Math.max(...xs.map((x) => (Math.abs(x.mid - x.now) / x.now) * 10_000))).toBeLessThan(0.2);
  });

  it('with lagMs the book is centred on the reference published lagMs before the last one', () => {
    const port = run(
      { background: { sizeBase: '1', refreshMs: 5000, lagMs: 20_000 }, volatility: 2 },
      HOUR_MS,
    );
    // Walk the calls in order: each book against the references published before it.
    const published: Array<{ at: number; price: number }> = [];
    const errors: number[] = [];
    let stale = 0;
    let r = 0;
    let b = 0;
    // The port logs every call in order; rebuild the order from the log's kinds.
    for (const line of port.log) {
      if (line.includes(' ref ')) {
        const ref = port.references[r++]!;
        published.push({ at: ref.at, price: num(ref.price) });
      } else if (line.includes(' bg ')) {
        const book = port.backgrounds[b++]!;
        const last = published[published.length - 1]!;
        if (last.at < 60_000) continue;
        const lagged = published.find((p) => p.at === last.at - 20_000)!;
        const mid = (num(book.bids[0]![0]) + num(book.asks[0]![0])) / 2;
        errors.push((Math.abs(mid - lagged.price) / lagged.price) * 10_000);
        if ((Math.abs(mid - last.price) / last.price) * 10_000 > 1) stale += 1;
      }
    }
    expect(errors.length).toBeGreaterThan(600);
    expect(Math.max(...errors)).toBeLessThan(0.2);
    expect(stale / errors.length).toBeGreaterThan(0.5);
  });

  it('with noiseBps the centre is off by that standard deviation', () => {
    const xs = offsets({ noiseBps: 8 });
    const errs = xs.map((x) => Math.log(x.mid / x.now) * 10_000);
    const m = mean(errs);
    const sd = Math.sqrt(mean(errs.map((e) => (e - m) ** 2)));
    expect(Math.abs(m)).toBeLessThan(1.5);
    expect(sd).toBeGreaterThan(7);
    expect(sd).toBeLessThan(9);
  });
});
