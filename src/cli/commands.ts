/**
 * Every `ledger-mm` subcommand, in the order the top-level help lists them. To add one, write
 * `src/cli/<name>.ts` exporting a {@link Command} and list it here; `test/cli/run-cli.test.ts`
 * checks that each registered command answers `--help`.
 */
import { cancelAllCommand } from './cancel-all.js';
import { checkCommand } from './check.js';
import type { Command } from './command.js';
import { pauseCommand, resumeCommand } from './control.js';
import { fillsCommand } from './fills.js';
import { keygenCommand } from './keygen.js';
import { ordersCommand } from './orders.js';
import { paperCommand } from './paper.js';
import { researchCommand } from './research.js';
import { runDaemonCommand } from './run.js';
import { simVenueCommand } from './sim-venue.js';
import { simulateCommand } from './simulate.js';
import { statusCommand } from './status.js';
import { tuneCommand } from './tune.js';
import { watchdogCommand } from './watchdog.js';

/** See the module doc. */
export const COMMANDS: readonly Command[] = Object.freeze([
  keygenCommand,
  checkCommand,
  runDaemonCommand,
  paperCommand,
  simVenueCommand,
  statusCommand,
  ordersCommand,
  fillsCommand,
  pauseCommand,
  resumeCommand,
  cancelAllCommand,
  watchdogCommand,
  researchCommand,
  simulateCommand,
  tuneCommand,
]);
