/**
 * The arguments of the operator commands that take only `[--config FILE]... [--json]` and
 * `--help` (`check`, `status`), parsed strictly: no positionals, no unknown options.
 */
import { parseArgs } from 'node:util';
import { EXIT, type CommandIo } from '../command.js';
import { errorText, usageError, type Setup } from './operator-setup.js';

/** What `--config` and `--json` said. */
export interface ConfigJsonArgs {
  /** The `--config` files in the order given; empty when there were none. */
  readonly configFiles: string[];
  readonly json: boolean;
}

/**
 * Parses `argv` of `ledger-mm <command>`. Bad usage prints the error and `usage` to stderr and
 * ends the command with exit 2; `--help` prints `usage` to stdout and ends it with exit 0.
 */
export function parseConfigJsonArgs(
  command: string,
  argv: string[],
  io: CommandIo,
  usage: string,
): Setup<ConfigJsonArgs> {
  let values: { config?: string[]; json?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        config: { type: 'string', short: 'c', multiple: true },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    return { ok: false, exitCode: usageError(io, command, usage, errorText(err)) };
  }
  if (values.help === true) {
    io.stdout(usage);
    return { ok: false, exitCode: EXIT.OK };
  }
  return { ok: true, value: { configFiles: values.config ?? [], json: values.json === true } };
}
