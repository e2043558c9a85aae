/**
 * An operator env ({@link OperatorEnv}) with a firm of two parties on the one simulated venue:
 * party `a` is the harness's account, party `b` a second account with its own API key, signing
 * key and wallet. Their key files sit under `secrets/`, the config `firm.json` lists them, and
 * the environment carries no single-party key (`LEDGER_MM_API_KEY`, `LEDGER_MM_SIGNING_KEY_FILE`).
 * Party a's journal is `store.sqlite` (store.path), party b's `store.b.sqlite`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { registerTestAccount, makeTestKey } from '../../support/sim-harness.js';
import {
  placeThroughJournalAs,
  useOperatorEnv,
  type JournalOrder,
  type JournalParty,
  type OperatorEnv,
} from './operator-env.js';
import type { PlacementOutcome } from '../../../src/execution/execution-events.js';

/** One party of the firm. */
export interface FirmParty extends JournalParty {
  readonly name: string;
}

/** What a firm test gets. */
export interface FirmEnv {
  readonly t: OperatorEnv;
  readonly a: FirmParty;
  readonly b: FirmParty;
  /** The firm's environment (no single-party key); the config is `--config firm.json` in `t.dir`. */
  readonly env: NodeJS.ProcessEnv;
  /** The CLI with `--config firm.json` and the firm's environment. */
  cli(argv: string[], env?: NodeJS.ProcessEnv): Promise<{ code: number; out: string; err: string }>;
  place(party: FirmParty, orders: JournalOrder[]): Promise<PlacementOutcome[]>;
}

/** Starts a {@link FirmEnv} before each test and closes it after; `use` receives each new one. */
export function useFirmEnv(name: string, use: (f: FirmEnv) => void): void {
  useOperatorEnv(name, (t) => use(firmOf(t)));
}

function firmOf(t: OperatorEnv): FirmEnv {
  const { h, dir } = t;
  mkdirSync(join(dir, 'secrets'), { mode: 0o700 });
  const secret = (file: string, text: string): void =>
    writeFileSync(join(dir, 'secrets', file), text, { mode: 0o600 });
  const keyB = makeTestKey();
  const accountB = registerTestAccount(h.venue, keyB.publicKeyRaw, { slug: 'testmm-b' });
  secret('a.apikey', `${h.apiKey}\n`);
  secret('a.key', h.key.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
  secret('b.apikey', `${accountB.apiKey}\n`);
  secret('b.key', keyB.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
  const config = {
    pairs: ['BTC/USDC', 'ETH/USDC'],
    firm: {
      parties: ['a', 'b'].map((n) => ({
        name: n,
        apiKeyFile: `secrets/${n}.apikey`,
        signingKeyFile: `secrets/${n}.key`,
      })),
    },
  };
  writeFileSync(join(dir, 'firm.json'), JSON.stringify(config));
  const urls = { baseUrl: h.baseUrl, submitUrl: h.submitUrl };
  const a: FirmParty = {
    name: 'a',
    ...urls,
    apiKey: h.apiKey,
    partyId: h.partyId,
    prefix: h.prefix,
    keyFile: join(dir, 'secrets', 'a.key'),
    storePath: join(dir, 'store.sqlite'),
  };
  const b: FirmParty = {
    name: 'b',
    ...urls,
    apiKey: accountB.apiKey,
    partyId: accountB.partyId,
    prefix: `${accountB.slug}-`,
    keyFile: join(dir, 'secrets', 'b.key'),
    storePath: join(dir, 'store.b.sqlite'),
  };
  const env: NodeJS.ProcessEnv = { ...t.env };
  delete env['LEDGER_MM_API_KEY'];
  delete env['LEDGER_MM_SIGNING_KEY_FILE'];
  return {
    t,
    a,
    b,
    env,
    cli: (argv, extra = {}) => t.cli([...argv, '--config', 'firm.json'], { ...env, ...extra }),
    place: (party, orders) => placeThroughJournalAs(party, orders),
  };
}
