/**
 * `ledger-mm cancel-all`: cancels every resting order of the party (the venue's OPEN list),
 * concurrently through the execution layer's cancel pool (at most `execution.cancelConcurrency`
 * at once), signing with the configured key and journaling every step like the daemon does.
 *
 * It takes the store lock: while a daemon holds the store it refuses (two signers for one party
 * would break the venue's one-at-a-time rule and both would believe they own the orders). Without
 * `--yes` it is a dry run: it lists what it would cancel, read-only, and cancels nothing.
 */
import { executionSettings } from '../execution/execution-settings.js';
import { systemClock } from '../core/clock.js';
import { toWire } from '../core/decimal.js';
import type { MmConfig } from '../config/schema.js';
import { verificationOf } from '../config/sections/signing.js';
import type { CancelOutcome } from '../execution/execution-events.js';
import { OrderEngine, type EngineEvent } from '../execution/order-engine.js';
import { apiKeyHandle } from '../logging/redact.js';
import { StoreLockedError, openJournal, type Journal } from '../orders/journal/index.js';
import type { TrackedOrder } from '../orders/fsm/index.js';
import { checkPartyId } from '../signing/fingerprint.js';
import type { Signer } from '../signing/signer.js';
import type { VenueClient } from '../venue/client.js';
import type { OrdersQuery } from '../venue/endpoints.js';
import type { Account, Order } from '../venue/schemas.js';
import { EXIT, type Command, type CommandIo } from './command.js';
import { cancelResult, plural, printReport, printResting, type ReportLine } from './support/cancel-report.js';
import { closeJournalRead, liveStoreHolder, readJournal } from './support/journal-reader.js';
import {
  errorText,
  operatorSigning,
  operatorStartup,
  operatorVenueClient,
} from './support/operator-setup.js';
import { PARTY_OPTION, PARTY_USAGE, commandParties, runPerParty } from './support/party-scope.js';

const NAME = 'cancel-all';

/** What to tell an operator whose daemon holds the store. */
export const STOP_THE_DAEMON =
  'stop the daemon first (or send it SIGTERM: it cancels its orders on shutdown)';

const USAGE = `Usage: ledger-mm cancel-all [--config FILE]... [--pair PAIR] [--party NAME] [--yes]

Cancels every resting order of the party (the venue's OPEN list: OPEN, PARTIALLY_FILLED,
PENDING_TRIGGER), several at once (at most execution.cancelConcurrency), each signed with the
configured key and journaled in the store like the daemon's own cancels. Orders the journal does
not know are adopted into it first, so every cancel is journaled.

Without --yes this is a dry run: it prints what it would cancel and cancels nothing.

It refuses to run while a daemon holds the store (store.path): two signers for one party break
the venue's one-placement-at-a-time rule. Stop the daemon first, or send it SIGTERM: the daemon
cancels its own orders on shutdown (shutdown.cancelOrders).

Each order ends as one of:
  cancelled     this command's cancel took effect
  filled        the order filled before the cancel landed
  already gone  the order had ended (cancelled, expired) before this command cancelled it
  stranded      the cancel cannot complete: the order's funds were withdrawn; the venue's
                operator must clear it
  failed        the cancel did not complete (the reason is printed); run the command again
Afterwards the OPEN list is read again and whatever still rests is printed.

With firm.parties, every party's orders are cancelled (or only --party NAME's), all parties at
once, each with its own API key and signing key and journaled in its own store; the command
refuses a party whose store a daemon holds.

Options:
  -c, --config FILE  A config file layered over config/default.json. Repeatable.
  -p, --pair PAIR    Only the orders of this pair, e.g. BTC/USDC.
  -y, --yes          Really cancel. Without it, nothing is cancelled.
${PARTY_USAGE}
  -h, --help         Show this help.

Exit codes: 0 nothing is left resting (or a dry run); 1 something is still resting, a daemon
holds the store, or the venue could not be read; 2 bad usage, invalid configuration, no API key
or no usable signing key (nothing was sent to the venue).
`;

interface Args {
  pair: string | undefined;
  yes: boolean;
}

async function run(argv: string[], io: CommandIo): Promise<number> {
  const start = operatorStartup(NAME, argv, io, USAGE, {
    options: {
      pair: { type: 'string', short: 'p' },
      yes: { type: 'boolean', short: 'y', default: false },
      ...PARTY_OPTION,
    },
    check: (v) => (v.pair === '' ? '--pair needs a pair name, e.g. BTC/USDC' : null),
  });
  if (!start.ok) return start.exitCode;
  const { values, config } = start.value;
  const args: Args = { pair: values.pair, yes: values.yes === true };
  const parties = commandParties(NAME, config, io, USAGE, values.party, args.yes ? 'keys' : 'api-key');
  if (!parties.ok) return parties.exitCode;
  return runPerParty(parties.value, io, false, (party, partyIo) =>
    args.yes ? cancelAll(args, party.config, partyIo) : dryRun(args, party.config, partyIo),
  );
}

/** The resting orders of the party (every page), optionally of one pair. */
async function listResting(client: VenueClient, pair: string | undefined): Promise<Order[]> {
  const query: OrdersQuery = { status: 'OPEN', refreshWallet: false };
  if (pair !== undefined) query.pair = pair;
  const out: Order[] = [];
  for await (const o of client.iterateOrders(query)) out.push(o);
  return out;
}

function scopeText(args: Args): string {
  return args.pair === undefined ? '' : ` on ${args.pair}`;
}

/** Without --yes: what would be cancelled, read-only. */
async function dryRun(args: Args, config: MmConfig, io: CommandIo): Promise<number> {
  const setup = operatorVenueClient(NAME, config.venue, io);
  if (!setup.ok) return setup.exitCode;
  const client = setup.value;
  let account: Account;
  let resting: Order[];
  try {
    account = await client.getAccount();
    resting = await listResting(client, args.pair);
  } catch (err) {
    io.stderr(`ledger-mm cancel-all: the venue could not be read: ${errorText(err)}\n`);
    return EXIT.FAILED;
  } finally {
    await client.close();
  }
  io.stdout(
    `ledger-mm cancel-all (dry run): party ${account.partyId} on ${config.venue.baseUrl} ` +
      `(API key ${apiKeyHandle(config.venue.apiKey)})\n`,
  );
  const read = readJournal(config.store.path);
  try {
    printResting(io, `${plural(resting.length, 'resting order')}${scopeText(args)}`, resting, read);
  } finally {
    closeJournalRead(read);
  }
  const holder = liveStoreHolder(config.store.path);
  if (holder !== null) {
    io.stdout(
      `\nnote: pid ${holder.pid} on ${holder.host} holds the store ${config.store.path}, so --yes ` +
        `would refuse: ${STOP_THE_DAEMON}.\n`,
    );
  }
  io.stdout(
    resting.length === 0
      ? '\ndry run: nothing to cancel.\n'
      : `\ndry run: nothing was cancelled. Run again with --yes to cancel ${plural(resting.length, 'order')}.\n`,
  );
  return EXIT.OK;
}

/** Opens the store read-write (taking its lock); reports a held store. */
function openStore(config: MmConfig, io: CommandIo): Journal<TrackedOrder> | number {
  try {
    return openJournal<TrackedOrder>({ path: config.store.path, clock: systemClock });
  } catch (err) {
    if (err instanceof StoreLockedError) {
      const who = err.holder === null ? 'another process' : `pid ${err.holder.pid} on ${err.holder.host}`;
      io.stderr(
        `ledger-mm cancel-all: the store ${config.store.path} is held by ${who} (a running daemon?): ` +
          `${STOP_THE_DAEMON}. Nothing was cancelled.\n  ${errorText(err)}\n`,
      );
      return EXIT.FAILED;
    }
    io.stderr(
      `ledger-mm cancel-all: the journal ${config.store.path} could not be opened: ${errorText(err)}\n`,
    );
    return EXIT.FAILED;
  }
}

/** With --yes: cancel for real. */
async function cancelAll(args: Args, config: MmConfig, io: CommandIo): Promise<number> {
  // Everything that can be refused locally is refused before the first venue call.
  const signing = operatorSigning(NAME, config, io);
  if (!signing.ok) return signing.exitCode;
  const { signer, client } = signing.value;
  try {
    const journal = openStore(config, io);
    if (typeof journal === 'number') return journal;
    return await withStore(args, config, io, client, signer, journal);
  } finally {
    await client.close();
  }
}

async function withStore(
  args: Args,
  config: MmConfig,
  io: CommandIo,
  client: VenueClient,
  signer: Signer,
  journal: Journal<TrackedOrder>,
): Promise<number> {
  let account: Account;
  try {
    account = await client.getAccount();
  } catch (err) {
    journal.close();
    io.stderr(`ledger-mm cancel-all: GET /account failed: ${errorText(err)}. Nothing was cancelled.\n`);
    return EXIT.FAILED;
  }
  const verdict = checkPartyId(account.partyId, signer.fingerprint);
  if (verdict.kind === 'mismatch') {
    journal.close();
    io.stderr(`ledger-mm cancel-all: ${verdict.reason}. Nothing was cancelled.\n`);
    return EXIT.FAILED;
  }

  const engine = new OrderEngine({
    venue: client,
    signer,
    partyId: account.partyId,
    clientOrderIdPrefix: account.clientOrderIdPrefix,
    clock: systemClock,
    journal,
    // Orders nobody knows are adopted (tracked and journaled) so that they can be cancelled too;
    // `cancel` would cancel them on every pair, `ignore` would leave them out.
    recovery: { unknownOrders: 'adopt' },
    settings: executionSettings(config.execution),
    verification: verificationOf(config.signing),
  });
  const submitted = new Set<string>();
  const alarms: string[] = [];
  const unsubscribe = engine.subscribe((e: EngineEvent) => {
    if (e.type === 'stage' && e.stage === 'cancel-submit') submitted.add(e.key);
    if (e.type === 'alarm') alarms.push(`${e.reason}${e.key === null ? '' : ` ${e.key}`}: ${e.detail}`);
  });
  const onSignal = (signal: NodeJS.Signals): void => {
    io.stderr(`ledger-mm cancel-all: ${signal}: stopping; cancels already submitted are let confirm\n`);
    engine.close().catch(() => undefined);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  let lines: ReportLine[];
  try {
    try {
      await engine.start();
    } catch (err) {
      io.stderr(
        `ledger-mm cancel-all: could not reconcile the journal with the venue: ${errorText(err)}. ` +
          'No cancel-all was started.\n',
      );
      return EXIT.FAILED;
    }
    let targets: Order[];
    try {
      targets = await listResting(client, args.pair);
    } catch (err) {
      io.stderr(`ledger-mm cancel-all: GET /orders failed: ${errorText(err)}. No cancel-all was started.\n`);
      return EXIT.FAILED;
    }
    io.stdout(
      `ledger-mm cancel-all: party ${account.partyId} on ${config.venue.baseUrl}: ` +
        `${plural(targets.length, 'resting order')}${scopeText(args)}` +
        (targets.length === 0
          ? '\n'
          : `, cancelling (at most ${config.execution.cancelConcurrency} at once)\n`),
    );
    lines = await Promise.all(
      targets.map(async (order): Promise<ReportLine> => {
        const tracked = engine.orders.byOrderId(order.orderId);
        const outcome: CancelOutcome =
          tracked === undefined
            ? { key: '', orderId: order.orderId, filled: null, kind: 'unknown-order' }
            : await engine.cancel(tracked.key, { reason: 'cancel-all', priority: 10 });
        const verdict = cancelResult(outcome, tracked !== undefined && submitted.has(tracked.key));
        const filled = outcome.filled === null ? order.filled : toWire(outcome.filled);
        return { order, ...verdict, filled };
      }),
    );
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await engine.close();
    unsubscribe();
  }

  printReport(io, lines);
  for (const a of alarms) io.stderr(`ledger-mm cancel-all: alarm: ${a}\n`);
  return reportLeft(args, config, io, client);
}

/** Reads the OPEN list again: exit 0 only when nothing of the scope is left resting. */
async function reportLeft(args: Args, config: MmConfig, io: CommandIo, client: VenueClient): Promise<number> {
  let left: Order[];
  try {
    left = await listResting(client, args.pair);
  } catch (err) {
    io.stderr(`ledger-mm cancel-all: could not read the OPEN list again: ${errorText(err)}\n`);
    return EXIT.FAILED;
  }
  if (left.length === 0) {
    io.stdout(`re-listed: nothing is left resting${scopeText(args)}.\n`);
    return EXIT.OK;
  }
  const read = readJournal(config.store.path);
  try {
    printResting(
      io,
      `\nre-listed: ${plural(left.length, 'order')} still resting${scopeText(args)}`,
      left,
      read,
    );
  } finally {
    closeJournalRead(read);
  }
  io.stdout('\nRun the command again to retry; a stranded order needs the venue operator.\n');
  return EXIT.FAILED;
}

/** The `cancel-all` subcommand. */
export const cancelAllCommand: Command = {
  name: NAME,
  usage: USAGE,
  run,
};
