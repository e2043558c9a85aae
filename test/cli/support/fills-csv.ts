import { dec, ZERO, type Dec } from '../../../src/core/decimal.js';

/**
 * Reads the CSV of `ledger-mm fills` as a spreadsheet would: RFC 4180 (CRLF records, quoted
 * fields with doubled quotes), the first record the header.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else field += c;
  }
  if (field !== '' || record.length > 0) throw new Error('the CSV does not end with CRLF');
  return records;
}

/** The header and the records as objects keyed by it. */
export function csvRows(text: string): { header: string[]; records: Record<string, string>[] } {
  const [header = [], ...rest] = parseCsv(text);
  return {
    header,
    records: rest.map((r) => {
      if (r.length !== header.length)
        throw new Error(`a record has ${r.length} fields, not ${header.length}`);
      return Object.fromEntries(header.map((h, i) => [h, r[i]!]));
    }),
  };
}

/** One order's fills from the CSV: pair, side, the prices seen and the summed quantity. */
export interface OrderFills {
  readonly pair: string;
  readonly side: string;
  readonly prices: Set<string>;
  qty: Dec;
}

/** The CSV's records summed per orderId. */
export function perOrder(records: readonly Record<string, string>[]): Map<string, OrderFills> {
  const out = new Map<string, OrderFills>();
  for (const r of records) {
    const o = out.get(r.orderId!) ?? { pair: r.pair!, side: r.side!, prices: new Set<string>(), qty: ZERO };
    o.prices.add(dec(r.price!).toFixed());
    o.qty = o.qty.plus(dec(r.quantity!));
    out.set(r.orderId!, o);
  }
  return out;
}
