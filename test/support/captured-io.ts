import type { CommandIo } from '../../src/cli/command.js';

/** A command's exit code and everything it wrote. */
export interface CapturedRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command (the CLI dispatcher or one command's `run`) with an io that captures stdout and
 * stderr, in the given environment and working directory.
 */
export async function runCaptured(
  run: (io: CommandIo) => Promise<number>,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<CapturedRun> {
  let stdout = '';
  let stderr = '';
  const io: CommandIo = {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    env,
    cwd,
  };
  const code = await run(io);
  return { code, stdout, stderr };
}

/** A command io that keeps each write: `out` and `err` hold the chunks in order. */
export type CollectingIo = CommandIo & { out: string[]; err: string[] };

/** A {@link CollectingIo} in `cwd` with the environment `env` (default empty). */
export function collectingIo(cwd: string, env: NodeJS.ProcessEnv = {}): CollectingIo {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (t) => out.push(t), stderr: (t) => err.push(t), env, cwd };
}
