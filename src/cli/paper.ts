/**
 * `ledger-mm paper`: paper trading. The simulated venue on loopback over real HTTP (market
 * running), an account registered with a throwaway signing key, and the daemon quoting two pairs
 * against it from `config/paper.json`. `npm start` runs this.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfigOrExit, type LoadConfigOptions } from '../config/load.js';
import type { Daemon } from '../daemon/daemon.js';
import { startPaperVenue, type PaperVenue } from '../lab/rig/paper-venue.js';
import { RIG_OWNED_ENV } from '../lab/rig/sim-rig.js';
import { PAPER_CONFIG_FILE, simulatorDaemonTuning } from '../lab/rig/paper-tuning.js';
import { observabilityAttachment } from '../daemon/reporting/observability-wiring.js';
import { runDaemon, type DaemonAttachment } from '../daemon/run-daemon.js';
import { SignalRelay, type ProcessSeam } from '../daemon/signals.js';
import type { LogDestination } from '../logging/logger.js';
import { scrubText } from '../logging/redact.js';
import { LATENCY_PROFILES, type LatencyProfile } from '../sim/latency.js';
import { EXIT, type Command, type CommandIo } from './command.js';

/**
 * Layered after it at `--latency realistic`: the shutdown bound of a live daemon (150 s), since a
 * cancel takes about 35 s there and eight quotes do not all cancel within paper's 30 s.
 */
export const PAPER_REALISTIC_CONFIG_FILE = fileURLToPath(
  new URL('../../config/paper-realistic.json', import.meta.url),
);

/** The config layers of paper mode: the package's, then the user's `--config` files. */
export function paperConfigFiles(latency: LatencyProfile, extra: readonly string[]): string[] {
  return [PAPER_CONFIG_FILE, ...(latency === 'realistic' ? [PAPER_REALISTIC_CONFIG_FILE] : []), ...extra];
}

const USAGE = `Usage: ledger-mm paper [options]

Paper trading: starts the simulated venue on 127.0.0.1 (free ports, market on), registers an
account with a throwaway signing key under the store directory, and runs the quoting daemon
against it over HTTP with config/paper.json (two pairs, store under ./var/paper/, pretty logs).
Each session starts from a fresh venue and a fresh journal. Stop with Ctrl-C.

Options:
      --latency PROFILE   fast (default: a placement takes 2-3 s), realistic (the venue's own
                          figures: about 45 s per placement) or instant.
      --seed N            The simulated market's seed.
  -c, --config FILE       A daemon config file layered over config/paper.json. Repeatable.
      --sim-config FILE   The simulated venue's config (default: the package's config/sim.json).
      --port N            API port (default 0: a free port).
      --submit-port N     Submission host port (default 0: a free port).
      --duration SECONDS  Stop by itself after this long (default: run until a signal).
      --parties N         Run N parties as one market maker (1 to 16, default 1): the account's
                          funds split evenly, each party with its own key files under the store
                          directory (firm.parties; docs/operations/parties.md).
  -h, --help              Show this help.

Venue URLs, API key and signing key are set by the command; LEDGER_MM_* variables for them are
ignored. Other LEDGER_MM_* variables apply as usual.
`;

/** Seams of {@link runPaper} (tests). */
export interface PaperSeams {
  readonly proc?: ProcessSeam;
  /** Where the daemon's log lines go (default stdout). */
  readonly logDestination?: LogDestination;
  readonly attachments?: readonly DaemonAttachment[];
  readonly onDaemon?: (daemon: Daemon, venue: PaperVenue) => void;
}

interface PaperArgs {
  latency: LatencyProfile;
  seed?: string;
  config: string[];
  simConfig?: string;
  port: number;
  submitPort: number;
  durationMs: number | null;
  parties: number;
}

function parse(argv: string[]): PaperArgs | { error: string } | 'help' {
  let v: Record<string, string | string[] | boolean | undefined>;
  try {
    ({ values: v } = parseArgs({
      args: argv,
      options: {
        latency: { type: 'string' },
        seed: { type: 'string' },
        config: { type: 'string', short: 'c', multiple: true },
        'sim-config': { type: 'string' },
        port: { type: 'string' },
        'submit-port': { type: 'string' },
        duration: { type: 'string' },
        parties: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    return { error: scrubText(err instanceof Error ? err.message : String(err)) };
  }
  if (v['help'] === true) return 'help';
  const latency = (v['latency'] as string | undefined) ?? 'fast';
  if (!(LATENCY_PROFILES as readonly string[]).includes(latency)) {
    return { error: `--latency must be one of ${LATENCY_PROFILES.join(', ')}` };
  }
  const int = (name: string, max: number): number | string | undefined => {
    const s = v[name] as string | undefined;
    if (s === undefined) return undefined;
    return /^\d+$/.test(s) && Number(s) <= max ? Number(s) : `--${name} must be a whole number up to ${max}`;
  };
  const port = int('port', 65_535) ?? 0;
  const submitPort = int('submit-port', 65_535) ?? 0;
  const duration = int('duration', 31_536_000);
  const parties = int('parties', 16) ?? 1;
  for (const x of [port, submitPort, duration, parties]) if (typeof x === 'string') return { error: x };
  if (parties === 0) return { error: '--parties must be a whole number from 1 to 16' };
  return {
    latency: latency as LatencyProfile,
    ...(v['seed'] === undefined ? {} : { seed: v['seed'] as string }),
    config: (v['config'] as string[] | undefined) ?? [],
    ...(v['sim-config'] === undefined ? {} : { simConfig: v['sim-config'] as string }),
    port: port as number,
    submitPort: submitPort as number,
    durationMs: duration === undefined ? null : (duration as number) * 1000,
    parties: parties as number,
  };
}

/** The command's body, with its seams. */
export async function runPaper(argv: string[], io: CommandIo, seams: PaperSeams = {}): Promise<number> {
  const args = parse(argv);
  if (args === 'help') {
    io.stdout(USAGE);
    return EXIT.OK;
  }
  if ('error' in args) {
    io.stderr(`ledger-mm paper: ${args.error}\n\n${USAGE}`);
    return EXIT.USAGE;
  }
  const env = { ...io.env };
  // The rig sets the venue's and the keys' variables; the store path stays the user's.
  for (const k of RIG_OWNED_ENV) delete env[k];
  const first = loadConfigOrExit(
    { configFiles: paperConfigFiles(args.latency, args.config), env, cwd: io.cwd },
    io,
  );
  if (!first.ok) return first.exitCode;

  let paper: PaperVenue;
  try {
    paper = await startPaperVenue({
      storePath: first.config.store.path,
      latency: args.latency,
      ...(args.seed === undefined ? {} : { seed: /^\d+$/.test(args.seed) ? Number(args.seed) : args.seed }),
      ...(args.simConfig === undefined ? {} : { simConfig: args.simConfig }),
      port: args.port,
      submitPort: args.submitPort,
      parties: args.parties,
    });
  } catch (err) {
    io.stderr(
      `ledger-mm paper: cannot start the simulated venue: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    return EXIT.FAILED;
  }
  // The config as `run` loads it (and reloads it on SIGHUP), pointed at the rig by the variables
  // of its venue, key and store; several parties' key files go in a layer after the user's.
  const load: LoadConfigOptions = {
    configFiles: [
      ...paperConfigFiles(args.latency, args.config),
      ...(paper.firmLayer === null ? [] : [paper.firmLayer]),
    ],
    env: { ...env, ...paper.rig.pointEnv() },
    cwd: io.cwd,
  };
  const loaded = loadConfigOrExit(load, io);
  if (!loaded.ok) {
    await paper.close();
    return loaded.exitCode;
  }
  io.stdout(
    [
      `ledger-mm paper: simulated venue on ${paper.baseUrl} (latency ${args.latency}, seed ${String(paper.venue.config.seed)}, market on)`,
      ...(paper.parties.length === 0
        ? [`  account ${paper.slug} (${paper.partyId}), signing key ${paper.keyFile}`]
        : paper.parties.map((p) => `  party ${p.name}: account ${p.slug} (${p.partyId}), keys ${p.keyFile}`)),
      `  quoting ${loaded.config.pairs.join(', ')}; journal ${loaded.config.store.path}`,
      `  operator endpoints (loopback): ${paper.adminUrl}`,
      '  Ctrl-C stops: quotes are cancelled first.',
      '',
    ].join('\n'),
  );
  const relay = new SignalRelay(seams.proc ?? process);
  const stopTimer =
    args.durationMs === null ? null : setTimeout(() => relay.raise('SIGTERM'), args.durationMs);
  try {
    const code = await runDaemon({
      command: 'paper',
      config: loaded.config,
      load,
      io,
      proc: relay,
      attachments: seams.attachments ?? [observabilityAttachment({ config: loaded.config })],
      ...(seams.logDestination === undefined ? {} : { logDestination: seams.logDestination }),
      tuning: simulatorDaemonTuning(args.latency),
      onDaemon: (daemon) => seams.onDaemon?.(daemon, paper),
    });
    return code;
  } finally {
    if (stopTimer !== null) clearTimeout(stopTimer);
    await paper.close();
    relay.release();
  }
}

/** The `paper` command. */
export const paperCommand: Command = {
  name: 'paper',
  usage: USAGE,
  run: (argv, io) => runPaper(argv, io),
};
