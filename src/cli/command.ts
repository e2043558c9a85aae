/**
 * One CLI subcommand. Each lives in its own file under `src/cli/` and is registered, with its line
 * of the top-level help, in `src/cli/commands.ts`. Commands parse their own arguments with
 * `node:util` parseArgs and print `--help` from their own usage text.
 */
export interface Command {
  /** The subcommand name, e.g. `check`. */
  readonly name: string;
  /** Full usage text, printed by `--help`. */
  readonly usage: string;
  /** Runs the command; resolves to the process exit code. */
  run(argv: string[], io: CommandIo): Promise<number>;
}

/** Where a command writes. Tests capture these instead of the process streams. */
export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** The working directory config paths are resolved against. */
  cwd: string;
}

/** Exit codes shared by every command. */
export const EXIT = {
  OK: 0,
  /** A check failed or the command could not do its work. */
  FAILED: 1,
  /** Bad usage or invalid configuration; nothing was sent to the venue. */
  USAGE: 2,
} as const;

/** The part of a writable stream {@link brokenPipeTolerant} needs. */
export interface OutputStream {
  write(text: string): unknown;
  on(event: 'error', listener: (err: NodeJS.ErrnoException) => void): unknown;
}

/**
 * A writer to `stream` that stops writing, silently, once the reader has gone (EPIPE:
 * `ledger-mm orders | head -1`). The command runs to its end and exits with its own code; any
 * other stream error is thrown as before.
 */
export function brokenPipeTolerant(stream: OutputStream): (text: string) => void {
  let closed = false;
  stream.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err;
    closed = true;
  });
  return (text) => {
    if (!closed) stream.write(text);
  };
}

/** The standard process-backed IO. */
export function processIo(): CommandIo {
  return {
    stdout: brokenPipeTolerant(process.stdout),
    stderr: brokenPipeTolerant(process.stderr),
    env: process.env,
    cwd: process.cwd(),
  };
}
