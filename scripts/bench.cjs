#!/usr/bin/env node
/*
 * The performance benchmark of ledger-mm: local CPU per placement and per cancel, CPU per poll
 * cycle and quote cycle, the metrics scrape, paper mode's steady-state memory (a child process,
 * 10 minutes of real time) and simulation speed. A script that prints figures, not a test; the
 * implementation is src/lab/bench/, run from the build:
 *
 *   npm run bench                          # "npm run build && node scripts/bench.cjs"
 *   npm run bench -- --quick               # 2 minutes of paper mode, shorter CPU runs
 *   node scripts/bench.cjs --json --only placement,polls   # after a build
 *   node scripts/bench.cjs --help
 *
 * CommonJS on purpose: it only loads the compiled ESM module, and a .cjs file is outside the
 * type-checked lint (a .mjs would need its own ESLint project entry).
 */
'use strict';

const path = require('node:path');
const { pathToFileURL } = require('node:url');

const bench = pathToFileURL(path.join(__dirname, '..', 'dist', 'lab', 'bench', 'run-bench.js')).href;

import(bench)
  .then((m) => m.main(process.argv.slice(2)))
  .then((code) => {
    process.exitCode = code;
  })
  .catch((err) => {
    console.error(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    console.error('(run `npm run build` first)');
    process.exitCode = 1;
  });
