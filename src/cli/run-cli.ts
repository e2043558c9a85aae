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
    'Run `ledger-mm <command> --help` for the options of one command.',
    '',
  ].join('\n');
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
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.stderr(`ledger-mm: unknown command ${JSON.stringify(name)}\n\n${topUsage()}`);
    return EXIT.USAGE;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(command.usage.endsWith('\n') ? command.usage : `${command.usage}\n`);
    return EXIT.OK;
  }
  return command.run(rest, io);
}
