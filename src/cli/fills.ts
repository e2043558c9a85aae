/**
 * `ledger-mm fills`: the fill history from the order journal (store.path, LEDGER_MM_STORE_PATH),
 * opened read-only like `status` and `orders` do, so it runs next to a daemon. Each fill carries
 * its time, pair, side, price, quantity, fee, orderId, clientOrderId, the reference the daemon
 * quoted around when it saw the fill, the spread captured against it, and the markouts at
 * +5/30/60/300 s once the daemon has measured them. Rows stream from a SQLite cursor: a history
 * of any length is never held in memory.
 */
import { resolve } from 'node:path';
import type { MmConfig } from '../config/schema.js';
import type { FillHistoryFilter } from '../orders/journal/index.js';
import { partyStorePath } from '../daemon/startup/party-store.js';
import { EXIT, type Command, type CommandIo } from './command.js';
import {
  CSV_HEADER,
  TABLE_PAGE_ROWS,
  csvLine,
  fillLine,
  tablePage,
  type FillLine,
} from './support/fill-rows.js';
import { closeJournalRead, describeJournalRead, readJournal } from './support/journal-reader.js';
import { errorText, operatorStartup } from './support/operator-setup.js';

const NAME = 'fills';

const USAGE = `Usage: ledger-mm fills [--config FILE]... [--since T] [--until T] [--pair PAIR] [--party X] [--format table|csv|json]

Prints the fills the order journal (store.path, LEDGER_MM_STORE_PATH) holds, oldest first:
time (ISO 8601, UTC), pair, side, price, quantity, fee, orderId, clientOrderId, the reference
price the daemon quoted around when it saw the fill, the spread captured against it (bps, signed
from our side: positive when we bought below or sold above the reference), and the markouts at
+5, +30, +60 and +300 s (the move of the book mid without our orders, signed from our side, bps;
empty until the daemon has measured them). The journal is opened read-only; this runs next to a
running daemon, and streams: a long history is never held in memory.

Options:
  -c, --config FILE    A config file layered over config/default.json. Repeatable.
      --since T        Fills at or after T: an ISO time (2026-11-28, 2026-11-28T09:00Z), "today"
                       (UTC midnight), or a time ago such as 90s, 30m, 8h, 7d.
      --until T        Fills before T (same forms).
  -p, --pair PAIR      Only this pair, e.g. BTC/USDC.
      --party X        Only fills of party X, a name of firm.parties: its journal alone (with
                       several parties every party's journal is read, each fill labelled with
                       its party). With one party the column is empty and this matches no fill.
      --format F       table (default), csv (RFC 4180, header line, for a spreadsheet) or json
                       (an array of objects).
  -h, --help           Show this help.

Exit codes: 0 listed (also when there are none, or no journal exists yet); 1 the journal could
not be read; 2 bad usage or invalid configuration.
`;

const FORMATS = ['table', 'csv', 'json'] as const;
type Format = (typeof FORMATS)[number];

const AGO = /^(\d+(?:\.\d+)?)(s|m|h|d)$/;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A `--since`/`--until` value as epoch ms, or null when it is not one of the accepted forms. */
export function parseTimeBound(text: string, now: number): number | null {
  const t = text.trim();
  if (t === 'today') {
    const d = new Date(now);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  }
  const ago = AGO.exec(t);
  if (ago !== null) return now - Number(ago[1]) * UNIT_MS[ago[2] as keyof typeof UNIT_MS];
  if (!/^\d{4}-\d{2}-\d{2}/.test(t)) return null;
  const ms = Date.parse(t);
  return Number.isFinite(ms) ? ms : null;
}

async function run(argv: string[], io: CommandIo): Promise<number> {
  const now = Date.now();
  const start = operatorStartup(NAME, argv, io, USAGE, {
    options: {
      since: { type: 'string' },
      until: { type: 'string' },
      pair: { type: 'string', short: 'p' },
      party: { type: 'string' },
      format: { type: 'string' },
    },
    check: (v) => {
      for (const [flag, value] of [
        ['--since', v.since],
        ['--until', v.until],
      ] as const) {
        if (value !== undefined && parseTimeBound(value, now) === null) {
          return `${flag} must be an ISO time, "today" or a time ago such as 30m, 8h, 7d; got "${value}"`;
        }
      }
      if (v.pair === '') return '--pair needs a pair name, e.g. BTC/USDC';
      if (v.party === '') return '--party needs a party id';
      if (v.format !== undefined && !(FORMATS as readonly string[]).includes(v.format)) {
        return `--format must be table, csv or json; got "${v.format}"`;
      }
      return null;
    },
  });
  if (!start.ok) return start.exitCode;
  const { values, config } = start.value;
  const filter: FillHistoryFilter = {
    ...(values.since === undefined ? {} : { since: parseTimeBound(values.since, now)! }),
    ...(values.until === undefined ? {} : { until: parseTimeBound(values.until, now)! }),
    ...(values.pair === undefined ? {} : { pair: values.pair }),
    ...(values.party === undefined ? {} : { party: values.party }),
  };
  return list(config, filter, (values.format ?? 'table') as Format, io);
}

/** One journal to read: the store's one party (null), or a party of the firm by name. */
interface FillStore {
  readonly party: string | null;
  readonly path: string;
}

/**
 * The journals to read: `store.path` for one party; with `firm.parties`, every party's journal
 * (`--party NAME` keeps that party's alone), its rows labelled with the party's name.
 */
function storesOf(
  config: MmConfig,
  filter: FillHistoryFilter,
  cwd: string,
): { stores: FillStore[]; filter: FillHistoryFilter } {
  if (config.firm.parties.length === 0) return { stores: [{ party: null, path: config.store.path }], filter };
  const { party, ...rest } = filter;
  const stores = config.firm.parties
    .map((p, i) => ({
      party: p.name,
      path: partyStorePath(
        config.store.path,
        { name: p.name, ...(p.storePath === undefined ? {} : { storePath: resolve(cwd, p.storePath) }) },
        i,
      ),
    }))
    .filter((s) => party === undefined || s.party === party);
  return { stores, filter: rest };
}

/** Streams the matching fills in `format`, every journal's merged by time. */
function list(config: MmConfig, wanted: FillHistoryFilter, format: Format, io: CommandIo): number {
  const { stores, filter } = storesOf(config, wanted, io.cwd);
  const reads = stores.map((s) => ({ store: s, read: readJournal(s.path) }));
  const open = reads.flatMap((r) => (r.read.kind === 'open' ? [{ store: r.store, read: r.read }] : []));
  const failed = reads.find((r) => r.read.kind === 'error');
  if (failed !== undefined || open.length === 0) {
    for (const r of open) closeJournalRead(r.read);
    if (failed !== undefined) {
      io.stderr(`ledger-mm fills: ${describeJournalRead(failed.read)}\n`);
      return EXIT.FAILED;
    }
    // No store yet: no fill. The machine formats stay parseable; the table says why.
    if (format === 'csv') io.stdout(CSV_HEADER);
    else if (format === 'json') io.stdout('[]\n');
    else io.stdout(`${reads.map((r) => describeJournalRead(r.read)).join('\n')}\n`);
    return EXIT.OK;
  }
  const out = writerOf(format, io);
  try {
    const streams = open.map((o) => ({
      store: o.store,
      rows: o.read.journal.fillHistory(filter)[Symbol.iterator](),
    }));
    for (const { store, row } of mergeByTime(streams)) {
      out.row(fillLine(store.party === null ? row : { ...row, party: row.party ?? store.party }));
    }
    out.end();
  } catch (err) {
    io.stderr(`ledger-mm fills: a journal could not be read: ${errorText(err)}\n`);
    return EXIT.FAILED;
  } finally {
    for (const o of open) closeJournalRead(o.read);
  }
  return EXIT.OK;
}

/** Merges journals' rows (each oldest first) into one stream, oldest first, holding one row each. */
function* mergeByTime<R extends { readonly at: number }>(
  streams: readonly { readonly store: FillStore; readonly rows: Iterator<R> }[],
): Generator<{ store: FillStore; row: R }> {
  const heads = streams.map((s) => ({ ...s, next: s.rows.next() }));
  for (;;) {
    let best: (typeof heads)[number] | undefined;
    for (const h of heads)
      if (!h.next.done && (best === undefined || h.next.value.at < (best.next.value as R).at)) best = h;
    if (best === undefined) return;
    yield { store: best.store, row: best.next.value as R };
    best.next = best.rows.next();
  }
}

/** Writes rows as they come, in one format. */
interface FillWriter {
  row(line: FillLine): void;
  end(): void;
}

function writerOf(format: Format, io: CommandIo): FillWriter {
  let count = 0;
  switch (format) {
    case 'csv':
      io.stdout(CSV_HEADER);
      return { row: (l) => io.stdout(csvLine(l)), end: () => {} };
    case 'json':
      return {
        row: (l) => io.stdout(`${count++ === 0 ? '[\n' : ',\n'}  ${JSON.stringify(l)}`),
        end: () => io.stdout(count === 0 ? '[]\n' : '\n]\n'),
      };
    case 'table': {
      let page: FillLine[] = [];
      const flush = (): void => {
        if (page.length > 0) io.stdout(tablePage(page));
        page = [];
      };
      return {
        row: (l) => {
          count += 1;
          page.push(l);
          if (page.length >= TABLE_PAGE_ROWS) flush();
        },
        end: () => {
          flush();
          io.stdout(count === 0 ? 'no fills\n' : `\n${count} fill${count === 1 ? '' : 's'}\n`);
        },
      };
    }
  }
}

/** The `fills` subcommand. */
export const fillsCommand: Command = {
  name: NAME,
  usage: USAGE,
  run,
};
