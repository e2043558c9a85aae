/**
 * `simulate --prices PAIR=FILE`: the recorded series of each pair named, read by the file's
 * extension (`.csv`, `.parquet`), checked and made into the market model's `replay` sections.
 */
import { extname, resolve } from 'node:path';
import type { ReplayConfig } from '../../sim/market/dynamics-config.js';
import { readCsvSeries } from './csv-series.js';
import { readParquetSeries } from './parquet-series.js';
import { DEFAULT_MAX_GAP_MS, ReplayError, toReplay, type PriceRow } from './price-series.js';

/** Parses one `PAIR=FILE`. */
export function parsePriceArg(text: string): { pair: string; file: string } | { error: string } {
  const eq = text.indexOf('=');
  const pair = eq < 0 ? '' : text.slice(0, eq).trim();
  const file = eq < 0 ? '' : text.slice(eq + 1).trim();
  if (!/^[^/\s]+\/[^/\s]+$/.test(pair) || file === '')
    return { error: `--prices must be PAIR=FILE (BTC/USDC=prices.csv), got "${text}"` };
  return { pair, file };
}

/** Rows of one file, by its extension. */
export async function readSeries(path: string): Promise<PriceRow[]> {
  const ext = extname(path).toLowerCase();
  if (ext === '.csv') return readCsvSeries(path);
  if (ext === '.parquet' || ext === '.pq') return readParquetSeries(path);
  throw new ReplayError(`${path}: unknown format "${ext}" (.csv or .parquet)`);
}

/** What {@link loadReplays} needs. */
export interface LoadReplaysOptions {
  /** Pair → file, as given (relative to `cwd`). */
  readonly prices: Readonly<Record<string, string>>;
  readonly cwd: string;
  readonly maxGapMs?: number;
  readonly durationMs: number;
}

/** Every pair's replay section; throws {@link ReplayError} naming the file and line. */
export async function loadReplays(o: LoadReplaysOptions): Promise<Record<string, ReplayConfig>> {
  const out: Record<string, ReplayConfig> = {};
  for (const [pair, file] of Object.entries(o.prices)) {
    const path = resolve(o.cwd, file);
    const rows = await readSeries(path);
    out[pair] = toReplay(file, rows, {
      maxGapMs: o.maxGapMs ?? DEFAULT_MAX_GAP_MS,
      durationMs: o.durationMs,
    });
  }
  return out;
}
