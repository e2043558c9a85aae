#!/usr/bin/env node
/**
 * Writes the synthetic replay example config/examples/replay-btc-usdc.csv and .parquet: the same
 * 3 h 10 min of BTC/USDC prices, one row every 3 s, in both formats (CSV `timestamp,price` with
 * ms since the epoch; Parquet with a TIMESTAMP (ms) column and a DOUBLE price). The path is a
 * seeded GBM (σ 0.6 a year) with two jumps, so it is reproducible and plainly not market data.
 *
 *   node scripts/make-replay-example.mjs        # rewrites both files
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';
import { parquetWriteBuffer } from 'hyparquet-writer';

const OUT = fileURLToPath(new URL('../config/examples/', import.meta.url));
const START = Date.parse('2025-01-06T00:00:00.000Z');
const STEP_MS = 3000;
const ROWS = (3 * 3600 + 600) / 3 + 1;
const SIGMA = 0.6;
const MS_PER_YEAR = 365 * 24 * 3600 * 1000;

// mulberry32: a small seeded generator, enough for an example.
let state = 20261128;
const next = () => {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const normal = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());

const times = [];
const prices = [];
let price = 60000;
const dt = STEP_MS / MS_PER_YEAR;
for (let i = 0; i < ROWS; i++) {
  if (i > 0) price *= Math.exp(-(SIGMA * SIGMA * dt) / 2 + SIGMA * Math.sqrt(dt) * normal());
  if (i === 1200) price *= 1.004; // a 40 bps jump up at 1 h
  if (i === 2800) price *= 0.995; // a 50 bps jump down at 2 h 20 min
  times.push(START + i * STEP_MS);
  prices.push(Math.round(price * 100) / 100);
}

const csv = ['timestamp,price', ...times.map((t, i) => `${t},${prices[i].toFixed(2)}`)].join('\n');
writeFileSync(`${OUT}replay-btc-usdc.csv`, `${csv}\n`);
const buffer = parquetWriteBuffer({
  columnData: [
    { name: 'timestamp', data: times.map((t) => new Date(t)), type: 'TIMESTAMP' },
    { name: 'price', data: prices, type: 'DOUBLE' },
  ],
});
writeFileSync(`${OUT}replay-btc-usdc.parquet`, new Uint8Array(buffer));
console.log(`wrote ${ROWS} rows to ${OUT}replay-btc-usdc.csv and .parquet`);
