/**
 * `ledger-mm sim-venue`: runs the simulated venue over HTTP, standalone, until SIGINT/SIGTERM.
 * It registers the daemon's signing key (given, or generated and written to a 0600 file) for a
 * configured account and prints the URLs, the API key and the environment lines that point the
 * daemon at it.
 */
import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { LATENCY_PROFILES, type LatencyProfile } from '../sim/latency.js';
import { DEFAULT_SIM_CONFIG_PATH, loadSimConfig, type SimConfig } from '../sim/sim-config.js';
import { SimVenue } from '../sim/sim-venue.js';
import { EXIT, type Command, type CommandIo } from './command.js';

const USAGE = `Usage: ledger-mm sim-venue [options]

Runs the simulated venue (trade API, submission host, operator endpoints) over HTTP until
SIGINT or SIGTERM, and prints what the daemon needs to trade against it.

Options:
      --port N            Base API port (default 8710; 0 picks a free port).
      --submit-port N     Submission host port (default 8711; 0 picks a free port).
      --host HOST         Interface to bind (default 127.0.0.1).
  -c, --config FILE       Sim config (default: the package's config/sim.json).
      --seed N            Overrides the config's seed.
      --latency PROFILE   realistic, fast or instant (overrides the config).
      --account SLUG      The configured account to hand to the daemon (default: the first).
      --public-key BASE64 Register this Ed25519 public key (raw 32 bytes or SPKI, base64).
      --key-out FILE      Without --public-key: generate a key pair and write the private key
                          (32-byte seed, hex, mode 0600) here (default var/sim-signing.key).
      --force             Replace an existing --key-out file.
      --no-market         Do not run the market model (no background book, no takers).
  -h, --help              Show this help.

The operator endpoints are under /admin on the base port, for loopback clients only.
Exit codes: 0 stopped by a signal; 1 could not start; 2 bad usage or configuration.
`;

interface Options {
  port: number;
  submitPort: number;
  host: string;
  config: string;
  seed?: string;
  latency?: LatencyProfile;
  account?: string;
  publicKey?: string;
  keyOut: string;
  force: boolean;
  market: boolean;
}

function parse(argv: string[], cwd: string): Options | string {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        'submit-port': { type: 'string' },
        host: { type: 'string' },
        config: { type: 'string', short: 'c' },
        seed: { type: 'string' },
        latency: { type: 'string' },
        account: { type: 'string' },
        'public-key': { type: 'string' },
        'key-out': { type: 'string' },
        force: { type: 'boolean', default: false },
        'no-market': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  const port = (name: string, dflt: number): number | string => {
    const v = values[name];
    if (v === undefined) return dflt;
    if (typeof v !== 'string' || !/^\d+$/.test(v) || Number(v) > 65535)
      return `--${name} must be a port number`;
    return Number(v);
  };
  const basePort = port('port', 8710);
  const submitPort = port('submit-port', 8711);
  if (typeof basePort === 'string') return basePort;
  if (typeof submitPort === 'string') return submitPort;
  const latency = values['latency'] as string | undefined;
  if (latency !== undefined && !(LATENCY_PROFILES as readonly string[]).includes(latency)) {
    return `--latency must be one of ${LATENCY_PROFILES.join(', ')}`;
  }
  const seed = values['seed'] as string | undefined;
  if (seed !== undefined && seed === '') return '--seed must not be empty';
  return {
    port: basePort,
    submitPort,
    host: (values['host'] as string | undefined) ?? '127.0.0.1',
    config:
      values['config'] === undefined ? DEFAULT_SIM_CONFIG_PATH : resolve(cwd, values['config'] as string),
    seed,
    latency: latency as LatencyProfile | undefined,
    account: values['account'] as string | undefined,
    publicKey: values['public-key'] as string | undefined,
    keyOut: resolve(cwd, (values['key-out'] as string | undefined) ?? 'var/sim-signing.key'),
    force: values['force'] === true,
    market: values['no-market'] !== true,
  };
}

/** Generates an Ed25519 key pair, writes the 32-byte seed as hex (0600), returns the raw public key. */
function writeKeyFile(path: string, force: boolean): Uint8Array {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  const seed = Buffer.from(jwk.d!, 'base64url');
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${seed.toString('hex')}\n`, { mode: 0o600, flag: force ? 'w' : 'wx' });
  chmodSync(path, 0o600);
  seed.fill(0);
  return new Uint8Array(Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url'));
}

/** Waits for SIGINT or SIGTERM. */
function processSignal(): Promise<void> {
  return new Promise((done) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/**
 * The command's body, with the stop condition injectable: it serves until `stop` resolves
 * (SIGINT/SIGTERM for the real command). `onReady` receives the URLs once listening.
 */
export async function runSimVenue(
  argv: string[],
  io: CommandIo,
  stop: () => Promise<void> = processSignal,
  onReady?: (info: { baseUrl: string; submitUrl: string; adminUrl: string; apiKey: string }) => void,
): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout(USAGE);
    return EXIT.OK;
  }
  const opts = parse(argv, io.cwd);
  if (typeof opts === 'string') {
    io.stderr(`ledger-mm sim-venue: ${opts}\n\n${USAGE}`);
    return EXIT.USAGE;
  }
  let config: SimConfig;
  try {
    config = loadSimConfig(opts.config);
  } catch (err) {
    io.stderr(`ledger-mm sim-venue: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT.USAGE;
  }
  const slug = opts.account ?? config.accounts[0]?.slug;
  const accountIndex = config.accounts.findIndex((a) => a.slug === slug);
  if (slug === undefined || accountIndex < 0) {
    io.stderr(
      `ledger-mm sim-venue: ${slug === undefined ? 'the config has no account' : `no account ${slug} in the config`}\n`,
    );
    return EXIT.USAGE;
  }
  // The key is known before the account is registered, so its party id carries the key's
  // fingerprint, as a party created from that key does on the ledger.
  let keyLine: string;
  let publicKey: string;
  try {
    if (opts.publicKey !== undefined) {
      publicKey = opts.publicKey;
      keyLine = 'signing key: the given public key is registered';
    } else {
      publicKey = Buffer.from(writeKeyFile(opts.keyOut, opts.force)).toString('base64');
      keyLine = `signing key: ${opts.keyOut} (new, mode 0600)`;
    }
  } catch (err) {
    const exists = (err as NodeJS.ErrnoException).code === 'EEXIST';
    io.stderr(
      `ledger-mm sim-venue: ${exists ? `${opts.keyOut} exists; pass --force to replace it or --public-key to reuse its key` : err instanceof Error ? err.message : String(err)}\n`,
    );
    return exists ? EXIT.USAGE : EXIT.FAILED;
  }
  let venue: SimVenue;
  try {
    const accounts = config.accounts.map((a, i) => (i === accountIndex ? { ...a, publicKey } : a));
    venue = new SimVenue({
      config: { ...config, accounts },
      seed: opts.seed === undefined ? undefined : /^\d+$/.test(opts.seed) ? Number(opts.seed) : opts.seed,
      latency: opts.latency,
    });
  } catch (err) {
    io.stderr(`ledger-mm sim-venue: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT.USAGE;
  }
  const apiKey = venue.apiKeys.get(slug);
  if (apiKey === undefined) {
    io.stderr(`ledger-mm sim-venue: no API key for account ${slug}\n`);
    await venue.close();
    return EXIT.FAILED;
  }
  let urls;
  try {
    urls = await venue.listen({ host: opts.host, port: opts.port, submitPort: opts.submitPort });
  } catch (err) {
    io.stderr(`ledger-mm sim-venue: cannot listen: ${err instanceof Error ? err.message : String(err)}\n`);
    await venue.close();
    return EXIT.FAILED;
  }
  if (opts.market) venue.startMarket();
  const account = venue.engine.account(slug);
  io.stdout(
    [
      `ledger-mm sim-venue: listening (seed ${String(venue.config.seed)}, latency ${venue.config.latency.profile}, market ${opts.market ? 'on' : 'off'})`,
      `  base URL:    ${urls.baseUrl}`,
      `  submit URL:  ${urls.submitUrl}`,
      `  admin URL:   ${urls.adminUrl} (loopback only)`,
      `  account:     ${account.slug} (${account.partyId})`,
      `  API key:     ${apiKey}`,
      `  ${keyLine}`,
      '',
      'Point the daemon at it:',
      `  export LEDGER_MM_BASE_URL=${urls.baseUrl}`,
      `  export LEDGER_MM_SUBMIT_URL=${urls.submitUrl}`,
      `  export LEDGER_MM_API_KEY=${apiKey}`,
      `  export LEDGER_MM_PAIRS=${(account.allowedPairs === 'all' ? venue.config.pairs.map((p) => p.pair) : account.allowedPairs).join(',')}`,
      ...(opts.publicKey === undefined ? [`  export LEDGER_MM_SIGNING_KEY_FILE=${opts.keyOut}`] : []),
      '',
      'Stop with Ctrl-C (SIGINT) or SIGTERM.',
      '',
    ].join('\n'),
  );
  onReady?.({ ...urls, apiKey });
  await stop();
  await venue.close();
  io.stdout('ledger-mm sim-venue: stopped\n');
  return EXIT.OK;
}

/** The `sim-venue` command. */
export const simVenueCommand: Command = {
  name: 'sim-venue',
  usage: USAGE,
  run: (argv, io) => runSimVenue(argv, io),
};
