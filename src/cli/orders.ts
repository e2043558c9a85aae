/**
 * `ledger-mm orders`: the party's orders as the venue lists them (`GET /orders`, every page,
 * `refreshWallet=false`), each marked with what the order journal knows of it, or FOREIGN when
 * the journal does not know it. `--local` lists the journal's non-terminal orders instead, with
 * their local states, without asking the venue. Read-only: the journal is opened read-only (no
 * lock), so this runs next to a daemon.
 */
import type { MmConfig } from '../config/schema.js';
import { apiKeyHandle, scrubText } from '../logging/redact.js';
import type { OrdersQuery } from '../venue/endpoints.js';
import type { Order } from '../venue/schemas.js';
import { EXIT, type Command, type CommandIo } from './command.js';
import {
  closeJournalRead,
  describeJournalRead,
  journalReadJson,
  nonTerminalOrders,
  readJournal,
} from './support/journal-reader.js';
import { errorText, operatorStartup, operatorVenueClient } from './support/operator-setup.js';
import {
  localOrderRow,
  localOrderTable,
  venueOrderRow,
  venueOrderTable,
  type LocalOrderRow,
} from './support/order-rows.js';
import { PARTY_OPTION, commandParties, runPerParty } from './support/party-scope.js';

const USAGE = `Usage: ledger-mm orders [--config FILE]... [--status OPEN|ALL|STATUS] [--pair PAIR] [--json] [--local]
                   [--party NAME]

Lists the party's orders as the venue has them (GET /orders, every page, without a wallet
refresh): order id, pair, side, price, quantity, filled, status and the start of the current
contract id. The JOURNAL column says what the order journal (store.path) knows of each order:
its local state, "(adopted)" when the daemon adopted it, or FOREIGN when the journal does not
know it (placed by something else: another process, a person, another store).

With --local, lists the journal's non-terminal orders with their local states instead, without
asking the venue; UNKNOWN (a submission whose fate is not known yet) and STRANDED (a cancel that
cannot complete: the order's funds were withdrawn) are marked "!!".

With firm.parties, lists every party's orders (or only --party NAME's), each against its own
journal; with --json one document {"parties": [{"party", "exitCode", ...}]}.

Read-only: the journal is opened read-only, so this runs next to a running daemon.

Options:
  -c, --config FILE    A config file layered over config/default.json. Repeatable.
  -s, --status STATUS  OPEN (default: every resting status), ALL (full history), or one exact
                       venue status (PARTIALLY_FILLED, FILLED, CANCELLED, ...).
  -p, --pair PAIR      Only this pair, e.g. BTC/USDC.
      --json           Print JSON instead of a table.
      --local          List the journal's non-terminal orders (no venue call, no API key needed).
      --party NAME     With firm.parties: only this party (default: every party, each
                       with its own API key and journal).
  -h, --help           Show this help.

Exit codes: 0 listed; 1 the venue or the journal could not be read; 2 bad usage or invalid
configuration (nothing was sent to the venue).
`;

const NAME = 'orders';

interface Args {
  status: string;
  pair: string | undefined;
  json: boolean;
  local: boolean;
}

async function run(argv: string[], io: CommandIo): Promise<number> {
  const start = operatorStartup(NAME, argv, io, USAGE, {
    options: {
      status: { type: 'string', short: 's' },
      pair: { type: 'string', short: 'p' },
      json: { type: 'boolean', default: false },
      local: { type: 'boolean', default: false },
      ...PARTY_OPTION,
    },
    check: (v) => {
      if (!/^[A-Z][A-Z_]*$/.test(statusOf(v.status))) {
        return `--status must be OPEN, ALL or a status name, got "${v.status}"`;
      }
      if (v.pair === '') return '--pair needs a pair name, e.g. BTC/USDC';
      if (v.local === true && v.status !== undefined) {
        return '--status filters the venue list; --local lists non-terminal orders';
      }
      return null;
    },
  });
  if (!start.ok) return start.exitCode;
  const { values, config } = start.value;
  const args: Args = {
    status: statusOf(values.status),
    pair: values.pair,
    json: values.json === true,
    local: values.local === true,
  };
  const parties = commandParties(NAME, config, io, USAGE, values.party, args.local ? 'none' : 'api-key');
  if (!parties.ok) return parties.exitCode;
  return runPerParty(parties.value, io, args.json, (party, partyIo) =>
    args.local ? listLocal(args, party.config, partyIo) : listVenue(args, party.config, partyIo),
  );
}

/** `--status` as the venue takes it (default OPEN). */
function statusOf(given: string | undefined): string {
  return (given ?? 'OPEN').toUpperCase();
}

/** `--local`: the journal's non-terminal orders. */
function listLocal(args: Args, config: MmConfig, io: CommandIo): number {
  const read = readJournal(config.store.path);
  let rows: LocalOrderRow[];
  try {
    rows = nonTerminalOrders(read)
      .filter((s) => args.pair === undefined || s.pair === args.pair)
      .map(localOrderRow);
  } catch (err) {
    io.stderr(`ledger-mm orders: journal ${read.path} could not be read: ${errorText(err)}\n`);
    return EXIT.FAILED;
  } finally {
    closeJournalRead(read);
  }
  const counts: Record<string, number> = {};
  for (const r of rows) counts[r.state] = (counts[r.state] ?? 0) + 1;
  if (args.json) {
    const out = {
      source: 'journal',
      journal: journalReadJson(read),
      pair: args.pair ?? null,
      counts,
      orders: rows,
    };
    io.stdout(`${scrubText(JSON.stringify(out, null, 2))}\n`);
    return read.kind === 'error' ? EXIT.FAILED : EXIT.OK;
  }
  io.stdout(`ledger-mm orders --local: ${describeJournalRead(read)}\n`);
  if (read.kind !== 'open') return read.kind === 'error' ? EXIT.FAILED : EXIT.OK;
  const scope = args.pair === undefined ? '' : ` on ${args.pair}`;
  if (rows.length === 0) {
    io.stdout(`no non-terminal orders${scope}\n`);
    return EXIT.OK;
  }
  const summary = Object.entries(counts)
    .map(([state, n]) => `${n} ${state}`)
    .join(', ');
  io.stdout(`${rows.length} non-terminal order${rows.length === 1 ? '' : 's'}${scope}: ${summary}\n\n`);
  io.stdout(localOrderTable(rows));
  const attention = rows.filter((r) => r.attention);
  if (attention.length > 0) {
    io.stdout(
      `\n!! ${attention.length} order${attention.length === 1 ? '' : 's'} UNKNOWN or STRANDED: ` +
        'UNKNOWN may still have reached the book (the daemon resolves it by reading the order); ' +
        "STRANDED cannot be cancelled (its funds were withdrawn): ask the venue's operator to clear it.\n",
    );
  }
  return EXIT.OK;
}

/** The venue's list, each order marked from the journal. */
async function listVenue(args: Args, config: MmConfig, io: CommandIo): Promise<number> {
  const setup = operatorVenueClient(NAME, config.venue, io);
  if (!setup.ok) return setup.exitCode;
  const client = setup.value;
  const query: OrdersQuery = { status: args.status, refreshWallet: false };
  if (args.pair !== undefined) query.pair = args.pair;
  const orders: Order[] = [];
  try {
    for await (const o of client.iterateOrders(query)) orders.push(o);
  } catch (err) {
    io.stderr(`ledger-mm orders: GET /orders failed: ${errorText(err)}\n`);
    return EXIT.FAILED;
  } finally {
    await client.close();
  }

  const read = readJournal(config.store.path);
  let rows;
  try {
    rows = orders.map((o) => venueOrderRow(o, read));
  } catch (err) {
    io.stderr(`ledger-mm orders: journal ${read.path} could not be read: ${errorText(err)}\n`);
    return EXIT.FAILED;
  } finally {
    closeJournalRead(read);
  }

  if (args.json) {
    const out = {
      source: 'venue',
      venue: { baseUrl: config.venue.baseUrl, apiKey: apiKeyHandle(config.venue.apiKey) },
      query: { status: args.status, pair: args.pair ?? null },
      journal: journalReadJson(read),
      orders: rows,
    };
    io.stdout(`${scrubText(JSON.stringify(out, null, 2))}\n`);
    return read.kind === 'error' ? EXIT.FAILED : EXIT.OK;
  }
  const scope = `status ${args.status}${args.pair === undefined ? '' : `, pair ${args.pair}`}`;
  io.stdout(`ledger-mm orders: ${config.venue.baseUrl} (${scope})\n${describeJournalRead(read)}\n\n`);
  if (rows.length === 0) {
    io.stdout('no orders\n');
  } else {
    io.stdout(venueOrderTable(rows));
    const foreign = rows.filter((r) => r.foreign === true).length;
    io.stdout(
      `\n${rows.length} order${rows.length === 1 ? '' : 's'}` +
        (foreign > 0 ? `, ${foreign} FOREIGN (not in the journal)` : '') +
        '\n',
    );
  }
  return read.kind === 'error' ? EXIT.FAILED : EXIT.OK;
}

/** The `orders` subcommand. */
export const ordersCommand: Command = {
  name: NAME,
  usage: USAGE,
  run,
};
