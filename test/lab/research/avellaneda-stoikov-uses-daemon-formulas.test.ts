import { describe, expect, it, vi } from 'vitest';
import type * as AsCore from '../../../src/strategy/avellaneda-stoikov.js';

// The simulation must quote with the daemon's own A–S core, not a copy of its formulas: wrap the
// module's exports and check that the simulation calls them.
vi.mock('../../../src/strategy/avellaneda-stoikov.js', async (importOriginal) => {
  const actual = await importOriginal<typeof AsCore>();
  return { ...actual, asQuotes: vi.fn(actual.asQuotes), optimalSpread: vi.fn(actual.optimalSpread) };
});

const core = await import('../../../src/strategy/avellaneda-stoikov.js');
const { paperParams, simulateAvellanedaStoikov } =
  await import('../../../src/lab/research/avellaneda-stoikov-sim.js');
const { Rng } = await import('../../../src/sim/rng.js');

describe('the simulation uses src/strategy/avellaneda-stoikov.ts', () => {
  it('calls asQuotes for every inventory-strategy quote and optimalSpread for the symmetric one', () => {
    simulateAvellanedaStoikov(paperParams(0.1, 3), new Rng(1));
    expect(vi.mocked(core.asQuotes)).toHaveBeenCalledTimes(3 * 200);
    expect(vi.mocked(core.asQuotes)).toHaveBeenCalledWith({
      s: 100,
      q: 0,
      gamma: 0.1,
      sigma: 2,
      tau: 1,
      k: 1.5,
    });
    expect(vi.mocked(core.optimalSpread).mock.calls.length).toBeGreaterThanOrEqual(3 * 200);
  });
});
