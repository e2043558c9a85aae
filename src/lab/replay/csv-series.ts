/**
 * Price rows from a CSV file with a header row. Two shapes are read, told apart by the header:
 * - a price series: `timestamp,price` (other columns are ignored);
 * - trades, as exchanges and Tardis publish them: a time column and a `price` column among
 *   others (Tardis: `exchange,symbol,timestamp,local_timestamp,id,side,price,amount`; Binance:
 *   `id,price,qty,quote_qty,time,is_buyer_maker`). Each trade's price is a row.
 *
 * The time column is the first of `timestamp`, `time`, `ts`, `datetime`, `date` (case-insensitive)
 * the header has. Fields are plain (no quoted commas: price files have none); blank lines and
 * lines starting with `#` are skipped.
 */
import { readFileSync } from 'node:fs';
import { parsePrice, parseTimestamp, ReplayError, type PriceRow } from './price-series.js';

/** Names of a time column, in order of preference. */
export const TIME_COLUMNS = ['timestamp', 'time', 'ts', 'datetime', 'date'] as const;

/** The columns of a header: where the time and the price are. */
export function locateColumns(source: string, header: readonly string[], line: number | string) {
  const names = header.map((h) => h.trim().replace(/^"|"$/g, '').toLowerCase());
  const time = TIME_COLUMNS.map((c) => names.indexOf(c)).find((i) => i >= 0);
  const price = names.indexOf('price');
  if (time === undefined || price < 0)
    throw new ReplayError(
      `${source}:${line}: the header must name a time column (${TIME_COLUMNS.join(', ')}) and a price column; got ${names.join(', ')}`,
    );
  return { time, price, width: names.length };
}

/** Every row of the CSV text `text` (named `source` in errors). */
export function parseCsvSeries(source: string, text: string): PriceRow[] {
  const lines = text.split(/\r?\n/);
  let columns: ReturnType<typeof locateColumns> | null = null;
  const rows: PriceRow[] = [];
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const line = i + 1;
    if (raw.trim() === '' || raw.startsWith('#')) continue;
    const fields = raw.split(',');
    if (columns === null) {
      columns = locateColumns(source, fields, line);
      continue;
    }
    if (fields.length !== columns.width)
      throw new ReplayError(
        `${source}:${line}: ${fields.length} fields where the header has ${columns.width}`,
      );
    const timeText = fields[columns.time]!.trim();
    const timeMs = parseTimestamp(timeText);
    if (timeMs === null) throw new ReplayError(`${source}:${line}: not a timestamp: "${timeText}"`);
    const priceText = fields[columns.price]!.trim();
    const price = parsePrice(priceText);
    if (price === null) throw new ReplayError(`${source}:${line}: not a price > 0: "${priceText}"`);
    rows.push({ line, timeMs, price });
  }
  if (columns === null) throw new ReplayError(`${source}: empty (no header row)`);
  return rows;
}

/** Every row of the CSV file at `path`. */
export function readCsvSeries(path: string): PriceRow[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ReplayError(`cannot read ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return parseCsvSeries(path, text);
}
