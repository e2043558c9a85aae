import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/command.js';
import { COMMANDS, loadCommands } from '../../src/cli/commands.js';
import { runCli, topUsage } from '../../src/cli/run-cli.js';
import { runCaptured, type CapturedRun } from '../support/captured-io.js';

/** Every registered command, loaded. */
const commands = await loadCommands();

/**
 * Runs the dispatcher with captured output. The environment holds an invalid value, so any
 * command that went past `--help` into loading its configuration would fail loudly.
 */
async function cli(...argv: string[]): Promise<CapturedRun> {
  const env = { LEDGER_MM_METRICS_PORT: 'notaport', LEDGER_MM_BASE_URL: 'http://192.0.2.1/v1' };
  return runCaptured((io) => runCli(argv, io), env, '/nonexistent-ledger-mm-cwd');
}

describe('the command registry', () => {
  it('loads each registered command under its own name, with a usage of that name', () => {
    expect(commands.map((c) => c.name)).toEqual(COMMANDS.map((c) => c.name));
    expect(commands.filter((c) => !c.usage.startsWith(`Usage: ledger-mm ${c.name}`))).toEqual([]);
  });

  it('registers keygen and check, each name once', () => {
    const names = COMMANDS.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['keygen', 'check']));
    expect(new Set(names).size).toBe(names.length);
    for (const c of COMMANDS) {
      expect(c.name).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(c.summary.trim()).not.toBe('');
      expect(c.summary).not.toContain('\n');
    }
  });
});

describe('runCli', () => {
  it.each(['--help', '-h', 'help'])(
    '%s prints the top-level usage listing every command, exit 0',
    async (flag) => {
      const run = await cli(flag);
      expect(run.code).toBe(EXIT.OK);
      expect(run.stderr).toBe('');
      expect(run.stdout).toBe(topUsage());
      expect(run.stdout).toMatch(/^Usage: ledger-mm <command> \[options\]/);
      for (const c of COMMANDS)
        expect(run.stdout).toMatch(new RegExp(`^ {2}${c.name} +${escape(c.summary)}$`, 'm'));
    },
  );

  it.each(['--version', '-V', 'version'])(
    '%s prints the version, the commit and the Node version, exit 0',
    async (flag) => {
      const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
        version: string;
      };
      const run = await runCaptured(
        (io) => runCli([flag], io),
        { LEDGER_MM_COMMIT: 'abc1234' },
        '/nonexistent-ledger-mm-cwd',
      );
      expect(run.code).toBe(EXIT.OK);
      expect(run.stdout).toBe(`ledger-mm ${pkg.version} (commit abc1234, node ${process.version})\n`);
      expect(run.stderr).toBe('');
      const bare = await cli('--version');
      expect(bare.stdout).toMatch(/^ledger-mm \d+\.\d+\.\d+ \(commit unknown, node v\d+/);
    },
  );

  it('without a command prints the usage to stderr, exit 2', async () => {
    const run = await cli();
    expect(run.code).toBe(EXIT.USAGE);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(topUsage());
  });

  it('refuses an unknown command with exit 2 and the usage', async () => {
    const run = await cli('frobnicate', '--help');
    expect(run.code).toBe(EXIT.USAGE);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('ledger-mm: unknown command "frobnicate"');
    expect(run.stderr).toContain(topUsage());
  });

  describe.each(commands.map((c) => [c.name, c] as const))('%s --help', (name, command) => {
    it.each(['--help', '-h'])(
      `prints the usage of ${name} with %s and exits 0, doing nothing else`,
      async (flag) => {
        const run = await cli(name, flag);
        expect(run.code).toBe(EXIT.OK);
        expect(run.stderr).toBe('');
        expect(run.stdout).toBe(command.usage.endsWith('\n') ? command.usage : `${command.usage}\n`);
        expect(run.stdout).toMatch(new RegExp(`^Usage: ledger-mm ${name}\\b`));
      },
    );

    it('answers --help after other options too', async () => {
      const run = await cli(name, '--bogus-option', '--help');
      expect(run.code).toBe(EXIT.OK);
      expect(run.stdout).toMatch(new RegExp(`^Usage: ledger-mm ${name}\\b`));
    });
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
