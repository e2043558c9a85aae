import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach } from 'vitest';

/** A fresh temp directory (`<prefix>XXXXXX`) for each test, removed after it; call the getter in tests. */
export function tempDirPerTest(prefix: string): () => string {
  let dir: string | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  return () => {
    if (dir === undefined) throw new Error('the temp directory exists only while a test runs');
    return dir;
  };
}

/** One temp directory (`<prefix>XXXXXX`) for the whole file, removed after its tests. */
export function tempDirPerFile(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
