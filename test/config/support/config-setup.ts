import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { afterEach } from 'vitest';

import { ConfigError, type ConfigIssue } from '../../../src/config/errors.js';
import { type LoadConfigOptions } from '../../../src/config/load.js';
import { errorOf } from '../../support/thrown.js';

/** A scratch working directory per test, removed afterwards. */
export function useTmpDir(): () => string {
  let dir: string | undefined;
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  return () => (dir ??= mkdtempSync(join(tmpdir(), 'ledger-mm-config-')));
}

/** Writes `content` (JSON unless a string) to `name` under `dir`; returns the absolute path. */
export function writeFile(dir: string, name: string, content: unknown): string {
  const path = join(dir, name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

/** The issues of the ConfigError `fn` throws (a return or another error fails the test). */
export function issuesOf(fn: () => unknown): readonly ConfigIssue[] {
  return errorOf(fn, ConfigError).issues;
}

/** Options with no files and an empty environment, overridable. */
export function opts(cwd: string, over: Partial<LoadConfigOptions> = {}): LoadConfigOptions {
  return { configFiles: [], env: {}, cwd, ...over };
}

/** An API key whose secret part is easy to search for. */
export const SECRET = 'S3cr3tPartNeverLogged';
export const API_KEY = `mm_ak_demo01.${SECRET}`;
export const HANDLE = 'mm_ak_demo01';
