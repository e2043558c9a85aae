/**
 * `ledger-mm research avellaneda-stoikov`: reproduces the simulation of Avellaneda & Stoikov
 * (2008) with the daemon's own A–S quoting formulas, and prints the paper's table beside it.
 * Offline and read-only: it touches no venue, key, config or file.
 */
import { parseArgs } from 'node:util';
import { paperParams, simulateAvellanedaStoikov } from '../lab/research/avellaneda-stoikov-sim.js';
import { formatJsonLines, formatTable } from '../lab/research/report.js';
import { Rng } from '../sim/rng.js';
import { EXIT, type Command, type CommandIo } from './command.js';

/** The studies `research` knows. */
const STUDIES = ['avellaneda-stoikov'] as const;

const DEFAULT_GAMMA = 0.1;
const DEFAULT_RUNS = 1000;
const DEFAULT_SEED = 2008;
const MAX_RUNS = 1_000_000;

const USAGE = `Usage: ledger-mm research avellaneda-stoikov [--gamma G] [--runs N] [--seed S] [--json]

Reproduces the simulation of Avellaneda & Stoikov (2008), "High-frequency trading in a limit
order book", Quantitative Finance 8(3): an inventory-aware market maker quoting with the daemon's
A–S formulas (reservation price and optimal spread) against a symmetric maker quoting the same
spread around the mid, on the same random paths. Paper parameters: S0 = 100, T = 1, σ = 2,
dt = 0.005, k = 1.5, A = 140, q0 = 0. Prints, per strategy, the mean spread, the mean and standard
deviation of the terminal profit and of the terminal inventory, next to the paper's table
(γ = 0.01, 0.1 and 0.5 have one).

Offline: plain floating-point research model, nothing is sent anywhere.

Options:
  -g, --gamma G   Risk aversion γ > 0 (default ${DEFAULT_GAMMA}).
  -n, --runs N    Number of simulated runs, 1..${MAX_RUNS} (default ${DEFAULT_RUNS}).
  -s, --seed S    Seed: an integer 0..4294967295 or any string (default ${DEFAULT_SEED}).
                  The same seed gives the same output.
      --json      Print only the JSON lines (one per strategy).
  -h, --help      Show this help.

Exit codes: 0 done; 2 bad usage.
`;

function usageError(io: CommandIo, message: string): number {
  io.stderr(`ledger-mm research: ${message}\n\n${USAGE}`);
  return EXIT.USAGE;
}

/** A positive decimal number (no hex, no sign, no Infinity), or null. */
function parsePositive(text: string): number | null {
  if (!/^(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) return null;
  const value = Number(text);
  return Number.isFinite(value) && value > 0 ? value : null;
}

/** A decimal integer seed that fits the generator's 32 bits, else the string itself. */
function parseSeed(text: string): number | string {
  if (/^\d{1,10}$/.test(text)) {
    const value = Number(text);
    if (value <= 0xffffffff) return value;
  }
  return text;
}

async function run(argv: string[], io: CommandIo): Promise<number> {
  let values: { gamma?: string; runs?: string; seed?: string; json?: boolean; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      options: {
        gamma: { type: 'string', short: 'g' },
        runs: { type: 'string', short: 'n' },
        seed: { type: 'string', short: 's' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: true,
    }));
  } catch (err) {
    return usageError(io, err instanceof Error ? err.message : String(err));
  }

  if (values.help === true) {
    io.stdout(USAGE);
    return EXIT.OK;
  }
  const [study, ...extra] = positionals;
  if (study === undefined) return usageError(io, `which study? one of ${STUDIES.join(', ')}`);
  if (!(STUDIES as readonly string[]).includes(study)) {
    return usageError(io, `unknown study "${study}" (known: ${STUDIES.join(', ')})`);
  }
  if (extra.length > 0) return usageError(io, `unexpected argument "${extra[0]}"`);

  let gamma = DEFAULT_GAMMA;
  if (values.gamma !== undefined) {
    const parsed = parsePositive(values.gamma);
    if (parsed === null) return usageError(io, `--gamma must be a positive number, got "${values.gamma}"`);
    gamma = parsed;
  }
  let runs = DEFAULT_RUNS;
  if (values.runs !== undefined) {
    const parsed = /^\d+$/.test(values.runs) ? Number(values.runs) : NaN;
    if (!(Number.isSafeInteger(parsed) && parsed >= 1 && parsed <= MAX_RUNS)) {
      return usageError(io, `--runs must be an integer in 1..${MAX_RUNS}, got "${values.runs}"`);
    }
    runs = parsed;
  }
  if (values.seed === '') return usageError(io, '--seed must not be empty');
  const seed = values.seed === undefined ? DEFAULT_SEED : parseSeed(values.seed);

  const result = simulateAvellanedaStoikov(paperParams(gamma, runs), new Rng(seed));
  if (values.json !== true) io.stdout(`${formatTable(result, seed)}\n`);
  io.stdout(formatJsonLines(result, seed));
  return EXIT.OK;
}

/** The `research` subcommand: offline reproductions of published market-making results. */
export const researchCommand: Command = {
  name: 'research',
  usage: USAGE,
  run,
};
