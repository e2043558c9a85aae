/**
 * `ledger-mm status`: a summary for a person. When the daemon's status endpoint answers
 * (`http://{metrics.host}:{metrics.port}/status`, 2 s timeout) it prints what the daemon says.
 * Otherwise it says the daemon is not running and builds the summary itself, read-only, from the
 * venue (account, resting orders per pair and side, balances) and the journal (non-terminal
 * orders by local state, UNKNOWN and STRANDED highlighted).
 */
import { ZERO, dec, toWire, type Dec } from '../core/decimal.js';
import type { MmConfig } from '../config/schema.js';
import { apiKeyHandle, scrubText } from '../logging/redact.js';
import type { VenueClient } from '../venue/client.js';
import type { Account, Balance, Order } from '../venue/schemas.js';
import { EXIT, type Command, type CommandIo } from './command.js';
import { attentionCounts, probeDaemon, renderTree, type DaemonProbe } from './support/daemon-status.js';
import {
  ATTENTION_STATES,
  closeJournalRead,
  describeJournalRead,
  journalReadJson,
  liveStoreHolder,
  nonTerminalOrders,
  readJournal,
  type JournalRead,
} from './support/journal-reader.js';
import { JSON_OPTION, errorText, operatorStartup, operatorVenueClient } from './support/operator-setup.js';
import { localOrderRow, localOrderTable, type LocalOrderRow } from './support/order-rows.js';
import { formatTable } from '../core/text-table.js';
import { PARTY_OPTION, PARTY_USAGE, commandParties, runPerParty } from './support/party-scope.js';
import { foldControlLog } from '../daemon/control/pause-book.js';
import { describeScope } from '../risk/pause-set.js';

const NAME = 'status';

const USAGE = `Usage: ledger-mm status [--config FILE]... [--json] [--party NAME]

Prints a summary of the market maker. If the daemon answers on its status endpoint
(http://{metrics.host}:{metrics.port}/status, within 2 s), prints what it says. Otherwise says
the daemon is not running and summarises, read-only:
  account      GET /account: the account's status and fee exemption
  open orders  GET /orders (every resting status, every page): count and remaining size per
               pair and side
  balances     GET /balances: available and locked per instrument
  journal      the journal's non-terminal orders by local state; UNKNOWN (a submission whose
               fate is not known yet) and STRANDED (a cancel that cannot complete) are marked "!!";
               and the pauses its control log keeps (ledger-mm pause, the kill switch)
The journal is opened read-only; nothing is placed, cancelled or written.

With firm.parties, the daemon's status carries every party under "parties" (--party NAME keeps
that party's entry only); without a daemon, the summary is made for every party (or only --party
NAME's), each with its own API key and journal.

Options:
  -c, --config FILE  A config file layered over config/default.json. Repeatable.
      --json         Print JSON instead of text.
${PARTY_USAGE}
  -h, --help         Show this help.

Exit codes: 0 the daemon answered, or the summary was read completely; 1 a venue read or the
journal failed (the rest is still printed); 2 bad usage, invalid configuration or no API key
(nothing was sent to the venue).
`;

/** Resting orders of one pair and side. */
export interface OpenOrderGroup {
  readonly pair: string;
  readonly side: string;
  readonly orders: number;
  /** Σ (quantity − filled), base units. */
  readonly remaining: string;
  /** Σ (quantity − filled) × price over priced orders, quote units. */
  readonly notional: string;
}

/** Groups resting orders per pair and side, sorted by pair then side. */
export function groupOpenOrders(orders: readonly Order[]): OpenOrderGroup[] {
  const groups = new Map<
    string,
    { pair: string; side: string; orders: number; remaining: Dec; notional: Dec }
  >();
  for (const o of orders) {
    const id = `${o.pair}\u0000${o.side}`;
    const g = groups.get(id) ?? { pair: o.pair, side: o.side, orders: 0, remaining: ZERO, notional: ZERO };
    const left = dec(o.quantity).minus(dec(o.filled));
    g.orders += 1;
    g.remaining = g.remaining.plus(left);
    if (o.price != null) g.notional = g.notional.plus(left.times(dec(o.price)));
    groups.set(id, g);
  }
  return [...groups.values()]
    .sort((a, b) => (a.pair === b.pair ? a.side.localeCompare(b.side) : a.pair.localeCompare(b.pair)))
    .map((g) => ({ ...g, remaining: toWire(g.remaining), notional: toWire(g.notional) }));
}

/** One venue read of the summary: its data, or why it failed. */
type Read<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

async function attempt<T>(fn: () => Promise<T>): Promise<Read<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (err) {
    return { ok: false, error: errorText(err) };
  }
}

async function listResting(client: VenueClient): Promise<Order[]> {
  const out: Order[] = [];
  for await (const o of client.iterateOrders({ status: 'OPEN', refreshWallet: false })) out.push(o);
  return out;
}

/** What the journal says, summarised. */
interface JournalSummary {
  readonly byState: Record<string, number>;
  readonly orders: LocalOrderRow[];
  /** The pauses its control log leaves in force: what a daemon started on it will not quote. */
  readonly pauses: { scope: string; reason: string; by: string; since: string; detail: string }[];
  readonly error: string | null;
}

function summariseJournal(read: JournalRead): JournalSummary {
  try {
    const orders = nonTerminalOrders(read).map(localOrderRow);
    const byState: Record<string, number> = {};
    for (const o of orders) byState[o.state] = (byState[o.state] ?? 0) + 1;
    const changes = read.kind === 'open' ? read.journal.controlChanges() : [];
    const pauses = foldControlLog(changes).map((p) => ({
      scope: describeScope(p),
      reason: p.reason,
      by: p.by,
      since: new Date(p.at).toISOString(),
      detail: p.detail,
    }));
    return { byState, orders, pauses, error: read.kind === 'error' ? read.message : null };
  } catch (err) {
    return { byState: {}, orders: [], pauses: [], error: errorText(err) };
  }
}

async function run(argv: string[], io: CommandIo): Promise<number> {
  const start = operatorStartup(NAME, argv, io, USAGE, { options: { ...JSON_OPTION, ...PARTY_OPTION } });
  if (!start.ok) return start.exitCode;
  const { config, values } = start.value;
  const json = values.json === true;
  // The name is vetted before anything is read; the keys only when the daemon does not answer.
  const named = commandParties(NAME, config, io, USAGE, values.party, 'none');
  if (!named.ok) return named.exitCode;

  const probe = await probeDaemon(config.metrics);
  if (probe.kind === 'running') return printDaemon(onlyParty(probe, values.party), json, io);
  const parties = commandParties(NAME, config, io, USAGE, values.party, 'api-key');
  if (!parties.ok) {
    io.stderr(`ledger-mm status: ${daemonLine(probe)}\n`);
    return parties.exitCode;
  }
  return runPerParty(parties.value, io, json, (party, partyIo) =>
    summarise(party.config, probe, json, partyIo),
  );
}

/** The daemon's status with only party `name` under `parties` (all of them without a name). */
function onlyParty(
  probe: DaemonProbe & { kind: 'running' },
  name: string | undefined,
): DaemonProbe & { kind: 'running' } {
  const status = probe.status;
  if (name === undefined || typeof status !== 'object' || status === null) return probe;
  const parties: unknown = (status as Record<string, unknown>)['parties'];
  if (!Array.isArray(parties)) return probe;
  const kept = parties.filter((p: unknown) => (p as { name?: unknown } | null)?.name === name);
  return { ...probe, status: { ...status, parties: kept } };
}

/** The daemon answered: print what it says. */
function printDaemon(probe: DaemonProbe & { kind: 'running' }, json: boolean, io: CommandIo): number {
  if (json) {
    const out = {
      daemon: { running: true, url: probe.url, httpStatus: probe.httpStatus, status: probe.status },
    };
    io.stdout(`${scrubText(JSON.stringify(out, null, 2))}\n`);
  } else {
    const http = probe.httpStatus === 200 ? '' : ` (HTTP ${probe.httpStatus})`;
    io.stdout(`ledger-mm status: the daemon is running; its status from ${probe.url}${http}:\n\n`);
    io.stdout(scrubText(renderTree(probe.status, '  ')));
    const attention = attentionCounts(probe.status);
    if (attention.length > 0) {
      io.stdout(
        `\n!! ${attention.map(([state, n]) => `${n} ${state}`).join(', ')}: UNKNOWN may have reached the book ` +
          "(the daemon resolves it); STRANDED cannot be cancelled (the venue's operator must clear it). " +
          'See `ledger-mm orders --local`.\n',
      );
    }
  }
  return EXIT.OK;
}

function daemonLine(probe: Exclude<DaemonProbe, { kind: 'running' }>): string {
  return probe.kind === 'not-running'
    ? `the daemon is not running (nothing answered at ${probe.url}: ${probe.reason})`
    : `the daemon is not answering: ${probe.url} answered HTTP ${probe.httpStatus} without a status (is something else on metrics.port?)`;
}

/** No daemon: the summary from the venue and the journal. */
async function summarise(
  config: MmConfig,
  probe: Exclude<DaemonProbe, { kind: 'running' }>,
  json: boolean,
  io: CommandIo,
): Promise<number> {
  const setup = operatorVenueClient(NAME, config.venue, io);
  if (!setup.ok) {
    io.stderr(`ledger-mm status: ${daemonLine(probe)}\n`);
    return setup.exitCode;
  }
  const client = setup.value;
  let account: Read<Account>;
  let resting: Read<Order[]>;
  let balances: Read<Balance[]>;
  try {
    [account, resting, balances] = await Promise.all([
      attempt(() => client.getAccount()),
      attempt(() => listResting(client)),
      attempt(() => client.getBalances()),
    ]);
  } finally {
    await client.close();
  }
  const read = readJournal(config.store.path);
  let journal: JournalSummary;
  try {
    journal = summariseJournal(read);
  } finally {
    closeJournalRead(read);
  }
  const groups = resting.ok ? groupOpenOrders(resting.value) : null;
  // A live lock holder with no status answer: a daemon on another metrics address, or a stuck one.
  const holder = liveStoreHolder(config.store.path);
  const errors = [
    ...(account.ok ? [] : [{ read: 'GET /account', error: account.error }]),
    ...(resting.ok ? [] : [{ read: 'GET /orders', error: resting.error }]),
    ...(balances.ok ? [] : [{ read: 'GET /balances', error: balances.error }]),
    ...(journal.error === null ? [] : [{ read: 'journal', error: journal.error }]),
  ];

  if (json) {
    const out = {
      daemon: {
        running: false,
        url: probe.url,
        reason: probe.kind === 'not-running' ? probe.reason : `HTTP ${probe.httpStatus} without a status`,
        storeHolder:
          holder === null
            ? null
            : { pid: holder.pid, host: holder.host, since: new Date(holder.startedAt).toISOString() },
      },
      venue: { baseUrl: config.venue.baseUrl, apiKey: apiKeyHandle(config.venue.apiKey) },
      account: account.ok ? account.value : null,
      openOrders: resting.ok ? { total: resting.value.length, byPairSide: groups } : null,
      balances: balances.ok ? balances.value : null,
      journal: {
        ...journalReadJson(read),
        nonTerminal: journal.orders.length,
        byState: journal.byState,
        pauses: journal.pauses,
        attention: journal.orders.filter((o) => o.attention),
      },
      errors,
    };
    io.stdout(`${scrubText(JSON.stringify(out, null, 2))}\n`);
    return errors.length === 0 ? EXIT.OK : EXIT.FAILED;
  }

  let out = `ledger-mm status: ${daemonLine(probe)}.\n`;
  if (holder !== null) {
    out +=
      `!! but pid ${holder.pid} on ${holder.host} holds the store ${config.store.path} ` +
      `(since ${new Date(holder.startedAt).toISOString()}): a daemon with another metrics address, or one not answering?\n`;
  }
  out += `From the venue (${config.venue.baseUrl}, API key ${apiKeyHandle(config.venue.apiKey)}) and the journal:\n\n`;
  out += accountText(account);
  out += openOrdersText(resting, groups);
  out += balancesText(balances);
  out += journalText(read, journal);
  io.stdout(scrubText(out));
  return errors.length === 0 ? EXIT.OK : EXIT.FAILED;
}

function accountText(account: Read<Account>): string {
  if (!account.ok) return `account: !! could not be read: ${account.error}\n\n`;
  const a = account.value;
  const status = a.status === 'ACTIVE' ? 'ACTIVE' : `!! ${a.status} (new placements are refused)`;
  const fee = a.feeExempt ? 'fee exempt' : '!! NOT fee exempt: stop and contact the operator before trading';
  return `account: ${a.name} (${a.slug}), party ${a.partyId}\n  status ${status}; ${fee}\n\n`;
}

function openOrdersText(resting: Read<Order[]>, groups: OpenOrderGroup[] | null): string {
  if (!resting.ok || groups === null) {
    return `open orders: !! could not be read: ${resting.ok ? 'no data' : resting.error}\n\n`;
  }
  if (groups.length === 0) return 'open orders: none resting on the venue\n\n';
  const n = resting.value.length;
  return (
    `open orders: ${n} resting on the venue\n` +
    formatTable(
      ['PAIR', 'SIDE', 'ORDERS', 'REMAINING', 'NOTIONAL'],
      groups.map((g) => [g.pair, g.side, String(g.orders), g.remaining, g.notional]),
      '  ',
    ) +
    '\n'
  );
}

function balancesText(balances: Read<Balance[]>): string {
  if (!balances.ok) return `balances: !! could not be read: ${balances.error}\n\n`;
  if (balances.value.length === 0) return 'balances: none\n\n';
  return (
    'balances:\n' +
    formatTable(
      ['INSTRUMENT', 'AVAILABLE', 'LOCKED'],
      balances.value.map((b) => [b.instrument, b.available, b.locked]),
      '  ',
    ) +
    '\n'
  );
}

function journalText(read: JournalRead, journal: JournalSummary): string {
  if (read.kind !== 'open') return `${describeJournalRead(read)}\n`;
  if (journal.error !== null) return `journal ${read.path}: !! could not be read: ${journal.error}\n`;
  const n = journal.orders.length;
  let out = `${describeJournalRead(read)}: ${n} non-terminal order${n === 1 ? '' : 's'}\n`;
  for (const [state, count] of Object.entries(journal.byState)) {
    const mark = (ATTENTION_STATES as readonly string[]).includes(state) ? '!! ' : '   ';
    out += `  ${mark}${state.padEnd(17)} ${count}\n`;
  }
  for (const p of journal.pauses) {
    out += `  paused: ${p.scope} (${p.reason}, by ${p.by}, since ${p.since}${p.detail === '' ? '' : `: ${p.detail}`}); \`ledger-mm resume\` lifts it once the daemon runs\n`;
  }
  const attention = journal.orders.filter((o) => o.attention);
  if (attention.length > 0) {
    out +=
      `\n!! ${attention.length} order${attention.length === 1 ? '' : 's'} need${attention.length === 1 ? 's' : ''} attention ` +
      "(UNKNOWN: may have reached the book, resolved by the daemon on start; STRANDED: funds withdrawn, the venue's operator must clear it):\n" +
      localOrderTable(attention, '  ');
  }
  return out;
}

/** The `status` subcommand. */
export const statusCommand: Command = {
  name: NAME,
  usage: USAGE,
  run,
};
