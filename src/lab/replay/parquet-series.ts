/**
 * Price rows from a Parquet file, read with hyparquet (pure JavaScript, no native build: the
 * image and every platform get the same reader). The columns are found as in CSV (a time column
 * of `TIME_COLUMNS`, and `price`); a timestamp may be an integer since the epoch (by magnitude,
 * as in CSV), a TIMESTAMP column, or text. Rows are numbered from 1 in errors.
 */
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } from 'hyparquet';
import { locateColumns } from './csv-series.js';
import { parsePrice, parseTimestamp, ReplayError, type PriceRow } from './price-series.js';

/** Every row of the Parquet file at `path`. */
export async function readParquetSeries(path: string): Promise<PriceRow[]> {
  let file;
  let metadata;
  try {
    file = await asyncBufferFromFile(path);
    metadata = await parquetMetadataAsync(file);
  } catch (err) {
    throw new ReplayError(
      `cannot read ${path} as Parquet: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const names = parquetSchema(metadata).children.map((c) => c.element.name);
  const at = locateColumns(path, names, 'schema');
  const timeName = names[at.time]!;
  const priceName = names[at.price]!;
  const records = await parquetReadObjects({ file, metadata, columns: [timeName, priceName] });
  return records.map((r, i) => {
    const line = i + 1;
    const timeMs = parseTimestamp(r[timeName]);
    if (timeMs === null) throw new ReplayError(`${path}:${line}: not a timestamp: ${String(r[timeName])}`);
    const price = parsePrice(r[priceName]);
    if (price === null) throw new ReplayError(`${path}:${line}: not a price > 0: ${String(r[priceName])}`);
    return { line, timeMs, price };
  });
}
