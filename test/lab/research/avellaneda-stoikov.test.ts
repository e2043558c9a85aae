import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../src/cli/command.js';
import { researchCommand } from '../../../src/cli/research.js';
import {
  paperParams,
  PAPER_PARAMS,
  simulateAvellanedaStoikov,
  type AsSimResult,
  type AsStrategyStats,
} from '../../../src/lab/research/avellaneda-stoikov-sim.js';
import { formatJsonLines, PAPER_TABLES, type AsReportLine } from '../../../src/lab/research/report.js';
import { Rng } from '../../../src/sim/rng.js';
import { runCaptured, type CapturedRun } from '../../support/captured-io.js';

const SEED = 2008;

/** |actual − expected| ≤ tol·|expected|. */
function expectWithin(actual: number, expected: number, tol: number, label: string): void {
  const lo = expected * (1 - tol);
  const hi = expected * (1 + tol);
  expect(actual, `${label}: ${actual} not within ±${tol * 100}% of ${expected}`).toBeGreaterThanOrEqual(lo);
  expect(actual, `${label}: ${actual} not within ±${tol * 100}% of ${expected}`).toBeLessThanOrEqual(hi);
}

interface Expected {
  profitMean: number;
  profitStd: number;
  finalQStd: number;
}

/** Means within ±10%, standard deviations within ±20%. */
function expectMatches(got: AsStrategyStats, want: Expected): void {
  expectWithin(got.profitMean, want.profitMean, 0.1, `${got.strategy} profit`);
  expectWithin(got.profitStd, want.profitStd, 0.2, `${got.strategy} std(profit)`);
  expectWithin(got.finalQStd, want.finalQStd, 0.2, `${got.strategy} std(q)`);
}

function simulate(gamma: number, seed: number | string = SEED, runs = 1000): AsSimResult {
  return simulateAvellanedaStoikov(paperParams(gamma, runs), new Rng(seed));
}

describe('Avellaneda–Stoikov (2008) simulation, γ = 0.1, 1000 runs', () => {
  const result = simulate(0.1);

  it('meets the acceptance values (means ±10%, standard deviations ±20%)', () => {
    expectMatches(result.inventory, { profitMean: 65.0, profitStd: 6.6, finalQStd: 2.9 });
    expectMatches(result.symmetric, { profitMean: 68.4, profitStd: 12.7, finalQStd: 8.4 });
  });

  it('the reference figures the report prints are the ones the test checks', () => {
    const table = PAPER_TABLES.get(0.1)!;
    expectMatches(result.inventory, table.inventory);
    expectMatches(result.symmetric, table.symmetric);
  });

  it('keeps the final inventory centred near zero for both strategies', () => {
    // Standard errors of the mean: ≈ 2.9/√1000 ≈ 0.09 and ≈ 8.4/√1000 ≈ 0.27.
    expect(Math.abs(result.inventory.finalQMean)).toBeLessThan(0.5);
    expect(Math.abs(result.symmetric.finalQMean)).toBeLessThan(1.5);
  });

  it('shows the paper’s finding: the inventory strategy cuts inventory and profit risk for a little profit', () => {
    expect(result.inventory.finalQStd).toBeLessThan(0.5 * result.symmetric.finalQStd);
    expect(result.inventory.profitStd).toBeLessThan(0.6 * result.symmetric.profitStd);
    expect(result.inventory.profitMean).toBeLessThan(result.symmetric.profitMean);
  });

  it("quotes the model's spread: (2/γ)ln(1+γ/k) = 1.29 plus γσ²τ averaged over the steps", () => {
    expect(result.steps).toBe(200);
    expect(result.spreadAtHorizon).toBeCloseTo(1.29, 2);
    // τ runs over T, T − dt, …, dt: its mean is (T + dt)/2.
    const meanTau = (PAPER_PARAMS.T + PAPER_PARAMS.dt) / 2;
    const expected = result.spreadAtHorizon + 0.1 * PAPER_PARAMS.sigma ** 2 * meanTau;
    expect(result.inventory.spread).toBeCloseTo(expected, 9);
    expect(result.symmetric.spread).toBeCloseTo(expected, 9);
  });

  it('would fail with a wrong γ: γ = 0.5 on the same paths falls outside the γ = 0.1 bands', () => {
    const wrong = simulate(0.5);
    expect(() =>
      expectMatches(wrong.inventory, { profitMean: 65.0, profitStd: 6.6, finalQStd: 2.9 }),
    ).toThrow(/not within ±10% of/);
    expect(() =>
      expectMatches(wrong.symmetric, { profitMean: 68.4, profitStd: 12.7, finalQStd: 8.4 }),
    ).toThrow(/not within ±10% of/);
  });

  it('runs 1000 runs × 200 steps × 2 strategies well within a second or two', () => {
    const start = performance.now();
    simulate(0.1, 'timing');
    expect(performance.now() - start).toBeLessThan(2_000);
  });
});

describe('determinism', () => {
  it('gives identical output for the same seed', () => {
    const a = formatJsonLines(simulate(0.1, 7, 200), 7);
    const b = formatJsonLines(simulate(0.1, 7, 200), 7);
    expect(a).toBe(b);
  });

  it('gives different numbers for a different seed', () => {
    const a = simulate(0.1, 7, 200);
    const b = simulate(0.1, 8, 200);
    expect(a.inventory.profitMean).not.toBe(b.inventory.profitMean);
    expect(a.symmetric.profitMean).not.toBe(b.symmetric.profitMean);
  });

  it('rejects parameters it cannot run with', () => {
    const rng = new Rng(1);
    expect(() => simulateAvellanedaStoikov({ ...paperParams(0.1), gamma: 0 }, rng)).toThrow(RangeError);
    expect(() => simulateAvellanedaStoikov({ ...paperParams(0.1), runs: 0 }, rng)).toThrow(RangeError);
    expect(() => simulateAvellanedaStoikov({ ...paperParams(0.1), dt: 0.3 }, rng)).toThrow(RangeError);
  });
});

async function runResearch(...argv: string[]): Promise<CapturedRun> {
  return runCaptured((io) => researchCommand.run(argv, io), {}, process.cwd());
}

function jsonLines(stdout: string): AsReportLine[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as AsReportLine);
}

describe('ledger-mm research avellaneda-stoikov', () => {
  it('prints a table and one JSON line per strategy', async () => {
    const out = await runResearch('avellaneda-stoikov', '--runs', '300', '--seed', '11');
    expect(out.code).toBe(EXIT.OK);
    expect(out.stderr).toBe('');
    expect(out.stdout).toMatch(/Strategy\s+Spread\s+Profit\s+Std\(profit\)\s+Final q\s+Std\(q\)/);
    expect(out.stdout).toMatch(/^Inventory\s+1\.49\s/m);
    expect(out.stdout).toMatch(/^ {2}paper\s+65\.00\s+6\.60\s+2\.90$/m);
    const lines = jsonLines(out.stdout);
    expect(lines.map((l) => l.strategy)).toEqual(['inventory', 'symmetric']);
    for (const line of lines) {
      expect(line).toMatchObject({
        study: 'avellaneda-stoikov',
        gamma: 0.1,
        runs: 300,
        steps: 200,
        seed: 11,
      });
      for (const key of ['spread', 'profitMean', 'profitStd', 'finalQMean', 'finalQStd'] as const) {
        expect(Number.isFinite(line[key])).toBe(true);
      }
    }
    expect(lines[0]!.paper?.profitMean).toBe(65.0);
  });

  it('--json prints only the two JSON lines, and the same seed prints the same bytes', async () => {
    const a = await runResearch(
      'avellaneda-stoikov',
      '--json',
      '--gamma',
      '0.5',
      '--runs',
      '100',
      '--seed',
      'abc',
    );
    const b = await runResearch('avellaneda-stoikov', '--json', '-g', '0.5', '-n', '100', '-s', 'abc');
    expect(a.code).toBe(EXIT.OK);
    const lines = a.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(jsonLines(a.stdout).map((l) => [l.strategy, l.gamma, l.seed])).toEqual([
      ['inventory', 0.5, 'abc'],
      ['symmetric', 0.5, 'abc'],
    ]);
    expect(b.stdout).toBe(a.stdout);
  });

  it('says when the paper has no table for γ', async () => {
    const out = await runResearch('avellaneda-stoikov', '--gamma', '0.2', '--runs', '20');
    expect(out.code).toBe(EXIT.OK);
    expect(out.stdout).toContain('No published reference figures are kept for γ = 0.2');
    expect(jsonLines(out.stdout).map((l) => [l.strategy, l.paper])).toEqual([
      ['inventory', null],
      ['symmetric', null],
    ]);
  });

  it('--help prints the usage', async () => {
    const out = await runResearch('--help');
    expect(out.code).toBe(EXIT.OK);
    expect(out.stdout).toBe(researchCommand.usage);
    expect(out.stdout).toContain('--gamma');
    expect(researchCommand.name).toBe('research');
  });

  it.each([
    [[], /which study/],
    [['nope'], /unknown study "nope"/],
    [['avellaneda-stoikov', 'extra'], /unexpected argument "extra"/],
    [['avellaneda-stoikov', '--gamma=-1'], /--gamma must be a positive number/],
    [['avellaneda-stoikov', '--gamma', '0x10'], /--gamma must be a positive number/],
    [['avellaneda-stoikov', '--runs', '0'], /--runs must be an integer/],
    [['avellaneda-stoikov', '--runs', '2.5'], /--runs must be an integer/],
    [['avellaneda-stoikov', '--seed', ''], /--seed must not be empty/],
    [['avellaneda-stoikov', '--bogus'], /Unknown option/],
  ])('rejects %j with exit 2', async (argv, message) => {
    const out = await runResearch(...argv);
    expect(out.code).toBe(EXIT.USAGE);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(message);
  });
});
