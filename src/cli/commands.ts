/**
 * Every `ledger-mm` subcommand, in the order the top-level help lists them: its name, its line of
 * the top-level help, and how to load it. A command's module is imported only when that command
 * runs (or its `--help` is asked), so `ledger-mm --version` or `status` does not load the daemon,
 * the simulator and their libraries. To add one, write `src/cli/<name>.ts` exporting a
 * {@link Command} and list it here; `test/cli/run-cli.test.ts` checks that each registered command
 * loads under its name and answers `--help`.
 */
import type { Command } from './command.js';

/** A registered command: what the top-level help says of it, and its module, loaded on demand. */
export interface CommandEntry {
  /** The subcommand name, e.g. `check`; the loaded command's own name. */
  readonly name: string;
  /** One line for the top-level help. */
  readonly summary: string;
  /** Imports the command's module. */
  load(): Promise<Command>;
}

/** See the module doc. */
export const COMMANDS: readonly CommandEntry[] = Object.freeze([
  {
    name: 'keygen',
    summary: 'Create a new Ed25519 signing key file and print its public key and ledger fingerprint',
    load: async () => (await import('./keygen.js')).keygenCommand,
  },
  {
    name: 'check',
    summary: 'Run the onboarding preflight against the configured venue (read-only) and print the report',
    load: async () => (await import('./check.js')).checkCommand,
  },
  {
    name: 'run',
    summary: 'Run the quoting daemon against the configured venue',
    load: async () => (await import('./run.js')).runDaemonCommand,
  },
  {
    name: 'paper',
    summary: 'Paper trading: the daemon quoting against the simulated venue over HTTP',
    load: async () => (await import('./paper.js')).paperCommand,
  },
  {
    name: 'sim-venue',
    summary: 'Run the simulated venue over HTTP for the daemon to trade against',
    load: async () => (await import('./sim-venue.js')).simVenueCommand,
  },
  {
    name: 'status',
    summary: "Summarise the daemon's status, or (no daemon) the account, open orders, balances and journal",
    load: async () => (await import('./status.js')).statusCommand,
  },
  {
    name: 'orders',
    summary:
      "List the party's (or each party's) orders on the venue, marked as known to the journal or FOREIGN (read-only)",
    load: async () => (await import('./orders.js')).ordersCommand,
  },
  {
    name: 'fills',
    summary:
      'List the fills from the journal, with reference, spread captured and markouts (table, CSV, JSON)',
    load: async () => (await import('./fills.js')).fillsCommand,
  },
  {
    name: 'pause',
    summary: "Pause the running daemon's quoting (a pair, a side, or all): cancel there, place nothing",
    load: async () => (await import('./control.js')).pauseCommand,
  },
  {
    name: 'resume',
    summary: 'Resume quoting paused by `pause` or by the kill switch',
    load: async () => (await import('./control.js')).resumeCommand,
  },
  {
    name: 'cancel-all',
    summary:
      'Cancel every resting order of the party or parties (dry run without --yes); refuses while a daemon runs',
    load: async () => (await import('./cancel-all.js')).cancelAllCommand,
  },
  {
    name: 'watchdog',
    summary: "Dead-man switch: cancel the party's resting orders when the daemon's heartbeat goes silent",
    load: async () => (await import('./watchdog.js')).watchdogCommand,
  },
  {
    name: 'research',
    summary: 'Reproduce a published market-making study offline (avellaneda-stoikov)',
    load: async () => (await import('./research.js')).researchCommand,
  },
  {
    name: 'simulate',
    summary: 'Run the daemon against the simulated venue for hours of fake time; report and baselines',
    load: async () => (await import('./simulate.js')).simulateCommand,
  },
  {
    name: 'tune',
    summary: 'Search strategy parameters in the simulator on training seeds; report the best on test seeds',
    load: async () => (await import('./tune.js')).tuneCommand,
  },
]);

/** Loads every registered command (the reference docs print each one's usage). */
export function loadCommands(): Promise<Command[]> {
  return Promise.all(COMMANDS.map((c) => c.load()));
}
