/**
 * The rows of `ledger-mm fills`: one journal fill as the operator reads it (ISO time, decimals as
 * stored, the spread captured against the reference, the markouts once known), and its three
 * renderings: CSV (RFC 4180), JSON lines of an array, and a text table. Each renders row by row,
 * so a history of any length streams.
 */
import { dec } from '../../core/decimal.js';
import { formatTable } from '../../core/text-table.js';
import type { FillHistoryRow } from '../../orders/journal/index.js';

/** One fill as `ledger-mm fills` prints it; every cell a string, '' when not known. */
export interface FillLine {
  readonly time: string;
  readonly pair: string;
  readonly side: string;
  readonly price: string;
  readonly quantity: string;
  readonly fee: string;
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly reference: string;
  /** Signed from our side: positive when we bought below or sold above the reference. */
  readonly spreadBps: string;
  readonly markout5s: string;
  readonly markout30s: string;
  readonly markout60s: string;
  readonly markout300s: string;
  /** '' for the store's one party (the journal has no party yet). */
  readonly party: string;
}

/** The columns, in order (the CSV header). */
export const FILL_COLUMNS: readonly (keyof FillLine)[] = [
  'time',
  'pair',
  'side',
  'price',
  'quantity',
  'fee',
  'orderId',
  'clientOrderId',
  'reference',
  'spreadBps',
  'markout5s',
  'markout30s',
  'markout60s',
  'markout300s',
  'party',
];

/**
 * The spread captured, bps of the reference, signed from our side: `(ref − price)` for a buy,
 * `(price − ref)` for a sell; '' without a price or a positive reference.
 */
export function spreadCapturedBps(side: string, price: string | null, reference: string | null): string {
  if (price === null || reference === null) return '';
  const ref = dec(reference);
  if (!ref.gt(0)) return '';
  const p = dec(price);
  const edge = side === 'BUY' ? ref.minus(p) : p.minus(ref);
  return edge.div(ref).times(10_000).toFixed(2);
}

/** A journal fill as a {@link FillLine}. */
export function fillLine(r: FillHistoryRow): FillLine {
  return {
    time: new Date(r.at).toISOString(),
    pair: r.pair,
    side: r.side,
    price: r.price ?? '',
    quantity: r.quantity,
    fee: r.fee ?? '',
    orderId: r.orderId,
    clientOrderId: r.clientOrderId ?? '',
    reference: r.reference ?? '',
    spreadBps: spreadCapturedBps(r.side, r.price, r.reference),
    markout5s: r.markouts[5] ?? '',
    markout30s: r.markouts[30] ?? '',
    markout60s: r.markouts[60] ?? '',
    markout300s: r.markouts[300] ?? '',
    party: r.party ?? '',
  };
}

/** One CSV field (RFC 4180): quoted when it holds a comma, a quote, CR or LF; quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** One CSV record, CRLF-terminated as RFC 4180 has it. */
export function csvRecord(values: readonly string[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** The CSV header record. */
export const CSV_HEADER = csvRecord(FILL_COLUMNS);

/** A fill as a CSV record. */
export function csvLine(line: FillLine): string {
  return csvRecord(FILL_COLUMNS.map((c) => line[c]));
}

/** Table headings, shorter than the CSV's. */
const TABLE_HEADINGS = [
  'TIME',
  'PAIR',
  'SIDE',
  'PRICE',
  'QTY',
  'FEE',
  'ORDER ID',
  'CLIENT ORDER ID',
  'REFERENCE',
  'SPREAD bps',
  'MO 5s',
  'MO 30s',
  'MO 60s',
  'MO 300s',
  'PARTY',
];

/** Rows per table page: widths are computed per page, so the table streams too. */
export const TABLE_PAGE_ROWS = 500;

/** A page of the text table (header included); '-' for what is not known. */
export function tablePage(lines: readonly FillLine[]): string {
  return formatTable(
    TABLE_HEADINGS,
    lines.map((l) => FILL_COLUMNS.map((c) => (l[c] === '' ? '-' : l[c]))),
  );
}
