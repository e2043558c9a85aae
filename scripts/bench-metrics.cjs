#!/usr/bin/env node
/*
 * The metrics cost benchmark: scrapes a fully populated registry N times (default 200) and
 * prints ms per scrape (mean, p50, p95, max). A script that prints figures, not a test; the
 * implementation is src/lab/bench/metrics-bench.ts, run from the build:
 *
 *   npm run bench:metrics                 # "npm run build && node scripts/bench-metrics.cjs"
 *   node scripts/bench-metrics.cjs 1000   # after a build, another number of scrapes
 *
 * CommonJS on purpose: it only loads the compiled ESM module, and a .cjs file is outside the
 * type-checked lint (a .mjs would need its own ESLint project entry).
 */
'use strict';

const path = require('node:path');
const { pathToFileURL } = require('node:url');

const n = Number(process.argv[2] ?? 200);
if (!Number.isSafeInteger(n) || n < 1) {
  console.error('usage: node scripts/bench-metrics.cjs [scrapes ≥ 1]');
  process.exit(2);
}
const bench = pathToFileURL(path.join(__dirname, '..', 'dist', 'lab', 'bench', 'metrics-bench.js')).href;

import(bench)
  .then(async (m) => {
    const result = await m.runMetricsBench(n);
    console.log(`node ${process.version}`);
    console.log(m.formatBench(result));
  })
  .catch((err) => {
    console.error(`bench-metrics: ${err instanceof Error ? err.message : String(err)}`);
    console.error('(run `npm run build` first)');
    process.exitCode = 1;
  });
