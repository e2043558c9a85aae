#!/usr/bin/env node
import { processIo } from './command.js';
import { runCli } from './run-cli.js';

// The bin entry: dispatch, then exit with the command's code once stdout has drained.
const code = await runCli(process.argv.slice(2), processIo());
process.exitCode = code;
