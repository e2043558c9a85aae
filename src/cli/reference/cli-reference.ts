/**
 * `docs/reference/cli.md`: the top-level help and every command's `--help`, read from the command
 * table (`src/cli/commands.ts`), so the page says exactly what the binary prints.
 */
import { COMMANDS, loadCommands } from '../commands.js';
import { topUsage } from '../run-cli.js';
import { banner } from './markdown.js';

function block(text: string): string {
  return ['```text', text.replace(/\n+$/, ''), '```'].join('\n');
}

/** The whole page (every command's module is loaded for its usage). */
export async function cliReference(): Promise<string> {
  const commands = await loadCommands();
  return [
    banner('Command reference', "the command table (`src/cli/commands.ts`) and each command's usage"),
    '`ledger-mm --help`:',
    '',
    block(topUsage()),
    '',
    ...COMMANDS.flatMap((c, i) => [`## ${c.name}`, '', c.summary + '.', '', block(commands[i]!.usage), '']),
  ].join('\n');
}
