import { expect, it } from 'vitest';
import { TARGET_TWO_SIDED, TARGET_VS_CANCEL_REPLACE } from '../../../src/lab/simulate/report.js';
import { simulate } from '../../../src/lab/simulate/simulate.js';
import { formatSummary } from '../../../src/lab/simulate/summary-table.js';

/**
 * The acceptance of `ledger-mm simulate`: the default paper config, realistic latencies, 24
 * simulated hours, the daemon against the cancel-then-replace baseline on the same seed. The two
 * runs take minutes of wall time one after the other (a test runs TypeScript in one thread), more
 * than CI's budget, so this test runs only with LEDGER_MM_SIMULATE_ACCEPTANCE=1; the same check
 * runs from the build, both runs at once, with `node scripts/simulate-acceptance.cjs`.
 */
const enabled = process.env['LEDGER_MM_SIMULATE_ACCEPTANCE'] === '1';

it.skipIf(!enabled)(
  '24 h on the paper config: two-sided ≥ 95 %, ≥ 1.5× cancel-then-replace, zero invariant breaks',
  async () => {
    const report = await simulate({
      input: {
        hours: 24,
        seed: 1,
        latency: 'realistic',
        configFiles: [],
        market: null,
        cwd: process.cwd(),
        env: {},
      },
      compare: true,
      baselines: ['cancel-then-replace'],
      workers: false,
    });
    console.log(formatSummary(report));
    const [daemon, ctr] = report.runs;
    for (const r of report.runs) expect(r.invariantBreaks.total, `${r.strategy} invariant breaks`).toBe(0);
    expect(daemon!.twoSidedAfterFirst / ctr!.twoSidedAfterFirst).toBeGreaterThanOrEqual(
      TARGET_VS_CANCEL_REPLACE,
    );
    expect(daemon!.twoSidedAfterFirst).toBeGreaterThanOrEqual(TARGET_TWO_SIDED);
  },
  20 * 60_000,
);
