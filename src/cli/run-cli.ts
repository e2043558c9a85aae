/**
 * The CLI's dispatcher: picks the command registered in `commands.ts` by its name and runs it,
 * and answers the top-level `--help` and `--version` itself. It owns the top-level usage text
 * and the exit codes of a missing or unknown command (2, usage); a command's own options and
 * help belong to the command. Above the daemon: `run` and `paper` start it from here.
 */
import { buildCommit, packageVersion } from '../observability/http/build-info.js';
import { COMMANDS } from './commands.js';
import { EXIT, type CommandIo } from './command.js';

/** Top-level usage, listing every registered command. */
export function topUsage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    'Usage: ledger-mm <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Run `ledger-mm <command> --help` for the options of one command; `ledger-mm --version` prints the version.',
    '',
  ].join('\n');
}

/** `ledger-mm 0.1.0 (commit abc1234, node v24.21.0)`: the package version and the build's commit. */
export function versionLine(env: NodeJS.ProcessEnv): string {
  return `ledger-mm ${packageVersion()} (commit ${buildCommit(env)}, node ${process.version})\n`;
}

/**
 * Dispatches `argv` (without the node and script paths) to a command and resolves to the exit
 * code. Unknown commands and a missing command are usage errors (exit 2).
 */
export async function runCli(argv: string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.stderr : io.stdout)(topUsage());
    return name === undefined ? EXIT.USAGE : EXIT.OK;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    io.stdout(versionLine(io.env));
    return EXIT.OK;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    io.stderr(`ledger-mm: unknown command ${JSON.stringify(name)}\n\n${topUsage()}`);
    return EXIT.USAGE;
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(command.usage.endsWith('\n') ? command.usage : `${command.usage}\n`);
    return EXIT.OK;
  }
  return command.run(rest, io);
}
