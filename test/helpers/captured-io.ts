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
