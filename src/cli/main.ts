#!/usr/bin/env node
/**
 * The `ledger-mm` bin entry (package.json `bin`, and `npm start`): hands argv to
 * {@link runCli} with the process's streams and sets the exit code; Node exits once the
 * event loop and stdout have drained. Everything else lives in the commands.
 */
import { processIo } from './command.js';
import { runCli } from './run-cli.js';

const code = await runCli(process.argv.slice(2), processIo());
process.exitCode = code;
