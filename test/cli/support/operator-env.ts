import { executionSettings } from '../../../src/execution/execution-settings.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import type { CommandIo } from '../../../src/cli/command.js';
import { runCli } from '../../../src/cli/run-cli.js';
import { systemClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import type { PlacementOutcome } from '../../../src/execution/execution-events.js';
import { OrderEngine } from '../../../src/execution/order-engine.js';
import { journalWriteAhead, type Journal } from '../../../src/orders/journal/index.js';
import { OrderRegistry } from '../../../src/orders/order-registry.js';
import type { TrackedOrder } from '../../../src/orders/fsm/index.js';
import { loadSigner } from '../../../src/signing/load-signer.js';
import { createLiveVenueClient } from '../../../src/venue/live-client.js';
import { startSimHarness, type SimHarness } from '../../support/sim-harness.js';

/** An order to place through the journal. */
export interface JournalOrder {
  pair?: string;
  side: 'BUY' | 'SELL';
  price: string;
  quantity: string;
}

/**
 * What the operator-command tests share: the simulated venue over HTTP, a temporary directory
 * with the account's signing key and a store path, and the environment pointing the CLI at them
 * (with a metrics port nothing listens on, so no daemon status answers).
 */
export interface OperatorEnv {
  h: SimHarness;
  dir: string;
  env: NodeJS.ProcessEnv;
  storePath: string;
  keyFile: string;
  /** Runs the real CLI dispatcher with captured output. */
  cli(argv: string[], env?: NodeJS.ProcessEnv): Promise<{ code: number; out: string; err: string }>;
  /** Places orders the way the daemon does (journaled), then stops that "daemon" without cancelling. */
  placeThroughJournal(orders: JournalOrder[]): Promise<PlacementOutcome[]>;
  close(): Promise<void>;
}

/** A port nothing listens on. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts an {@link OperatorEnv}; `name` tags the temporary directory. */
export async function startOperatorEnv(name: string): Promise<OperatorEnv> {
  const h = await startSimHarness();
  const dir = mkdtempSync(join(tmpdir(), `ledger-mm-${name}-`));
  const storePath = join(dir, 'store.sqlite');
  const keyFile = join(dir, 'signing.key');
  writeFileSync(keyFile, h.key.privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  const env: NodeJS.ProcessEnv = {
    LEDGER_MM_BASE_URL: h.baseUrl,
    LEDGER_MM_SUBMIT_URL: h.submitUrl,
    LEDGER_MM_API_KEY: h.apiKey,
    LEDGER_MM_SIGNING_KEY_FILE: keyFile,
    LEDGER_MM_STORE_PATH: storePath,
    LEDGER_MM_METRICS_PORT: String(await freePort()),
  };
  const cli: OperatorEnv['cli'] = async (argv, e = env) => {
    let out = '';
    let err = '';
    const io: CommandIo = { stdout: (t) => (out += t), stderr: (t) => (err += t), env: e, cwd: dir };
    return { code: await runCli(argv, io), out, err };
  };
  const placeThroughJournal: OperatorEnv['placeThroughJournal'] = (orders) =>
    placeThroughJournalAs(
      {
        baseUrl: h.baseUrl,
        submitUrl: h.submitUrl,
        apiKey: h.apiKey,
        partyId: h.partyId,
        prefix: h.prefix,
        keyFile,
        storePath,
      },
      orders,
    );
  return {
    h,
    dir,
    env,
    storePath,
    keyFile,
    cli,
    placeThroughJournal,
    close: async () => {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The party a journaled placement is made for: its venue, keys and journal. */
export interface JournalParty {
  readonly baseUrl: string;
  readonly submitUrl: string;
  readonly apiKey: string;
  readonly partyId: string;
  /** Its clientOrderId prefix, `<slug>-`. */
  readonly prefix: string;
  readonly keyFile: string;
  readonly storePath: string;
}

/** Places orders as `party` the way the daemon does (journaled), then stops without cancelling. */
export async function placeThroughJournalAs(
  party: JournalParty,
  orders: readonly JournalOrder[],
): Promise<PlacementOutcome[]> {
  const { baseUrl, submitUrl, apiKey } = party;
  const venue = createLiveVenueClient({ baseUrl, submitUrl, apiKey });
  const engine = new OrderEngine({
    venue,
    signer: loadSigner({ keyFile: party.keyFile, publicKeyFormat: 'raw' }),
    partyId: party.partyId,
    clientOrderIdPrefix: party.prefix,
    clock: systemClock,
    storePath: party.storePath,
    settings: executionSettings(
      {},
      { placement: { confirmBackoff: { initialMs: 20, factor: 1, maxMs: 20 } } },
    ),
  });
  try {
    await engine.start();
    const out: PlacementOutcome[] = [];
    for (const [i, o] of orders.entries()) {
      const pair = o.pair ?? 'BTC/USDC';
      const intent = {
        slot: `${pair}:${o.side}:${i}`,
        pair,
        side: o.side,
        price: dec(o.price),
        quantity: dec(o.quantity),
      };
      out.push(await engine.place(intent));
    }
    expect(out.map((o) => o.kind)).toEqual(orders.map(() => 'placed'));
    return out;
  } finally {
    await engine.close();
    await venue.close();
  }
}

/**
 * Journals an order whose submission answer was lost (clientOrderId `<prefix>lost-1`, orderId
 * `lost-order-1`): it ends UNKNOWN, with no venue involved. Returns its key.
 */
export function journalUnknownOrder(journal: Journal<TrackedOrder>, prefix: string): string {
  const registry = new OrderRegistry({ writeAhead: journalWriteAhead(journal) });
  const at = Date.now();
  const clientOrderId = `${prefix}lost-1`;
  const price = dec('61000');
  const quantity = dec('0.01');
  const { key } = registry.createIntent({
    slot: 'BTC/USDC:BUY:9',
    pair: 'BTC/USDC',
    side: 'BUY',
    price,
    quantity,
    clientOrderId,
    at,
  });
  registry.apply(key, { type: 'PrepareStarted', at });
  const echo = { pair: 'BTC/USDC', side: 'BUY' as const, type: 'LIMIT', price, quantity };
  registry.apply(key, { type: 'Prepared', orderId: 'lost-order-1', clientOrderId, echo, at });
  registry.apply(key, { type: 'Signed', at });
  registry.apply(key, { type: 'SubmitStarted', at });
  registry.apply(key, { type: 'SubmitAmbiguous', code: 'CLIENT_TIMEOUT', at });
  return key;
}

/**
 * Starts an operator env (`startOperatorEnv(name)`) before each test and closes it after; `use`
 * receives each new one. After-hooks a test file registers later run first (they may need it).
 */
export function useOperatorEnv(name: string, use: (t: OperatorEnv) => void): void {
  let current: OperatorEnv | undefined;
  beforeEach(async () => {
    current = await startOperatorEnv(name);
    use(current);
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
}
