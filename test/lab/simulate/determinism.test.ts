import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { runSimulate } from '../../../src/cli/simulate.js';
import { collectingIo, type CollectingIo } from '../../support/captured-io.js';
import { tempDirPerFile } from '../../support/temp-dir.js';

const dir = tempDirPerFile('ledger-mm-simulate-det-');
const io = (): CollectingIo => collectingIo(dir);

/**
 * The same seed and config give the same report.json, byte for byte: the venue, the market and
 * the daemon's jitter are seeded, the simulated clock starts at a fixed instant, and nothing of
 * the wall clock or the machine enters the report.
 */
it('the same seed and config give an identical report.json (1 simulated hour, fast latencies)', async () => {
  const args = (out: string): string[] => ['--hours', '1', '--latency', 'fast', '--seed', '7', '--out', out];
  const first = io();
  expect(await runSimulate(args('a'), first, { stderrIsTTY: false })).toBe(0);
  const second = io();
  expect(await runSimulate(args('b'), second, { stderrIsTTY: false })).toBe(0);
  const a = fs.readFileSync(path.join(dir, 'a', 'report.json'), 'utf8');
  const b = fs.readFileSync(path.join(dir, 'b', 'report.json'), 'utf8');
  expect(a.length).toBeGreaterThan(1000);
  expect(b).toBe(a);
  const report = JSON.parse(a) as {
    runs: {
      fills: number;
      placements: number;
      invariantBreaks: { total: number };
      abandonedPrepares: number;
      abandonedBy: Record<string, number>;
      placementOutcomes: Record<string, number>;
    }[];
  };
  const run = report.runs[0]!;
  expect(run.placements).toBeGreaterThan(0);
  expect(run.invariantBreaks.total).toBe(0);
  // Every prepare the venue saw go unsubmitted, the daemon reported with why (no fault here).
  expect(run.abandonedPrepares).toBeGreaterThan(0);
  expect(Object.values(run.abandonedBy).reduce((x, y) => x + y, 0)).toBe(run.abandonedPrepares);
  // The daemon's own placement outcomes agree with the venue's ground truth: every order the venue
  // took, the daemon saw rest (no fault, no fill before its first read at these latencies).
  expect(run.placementOutcomes['placed']).toBe(run.placements);
  // Progress went to stderr, a line per tenth (stderr is not a terminal here).
  expect(first.err.join('').match(/simulated \(\d+ %\)/g)?.length).toBe(10);
}, 120_000);
