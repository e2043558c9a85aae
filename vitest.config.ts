import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores (one worker on a 2-core CI machine), for
    // the main process; here it only collects results, so every core runs test files.
    maxWorkers: os.availableParallelism(),
  },
});
