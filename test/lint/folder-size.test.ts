/**
 * The house rule "folders show the architecture, and none holds more than 20 files", checked over
 * every folder of the code: `src/`, `test/` and `scripts/`. A folder's files are the regular files
 * directly in it; its subfolders are folders of their own. The results archive under `docs/` is
 * not code and is not checked.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The most files a folder of the code may hold. */
const MAX_FILES = 20;

/** Every folder under `dir` (itself included), with the number of files directly in it. */
function folderSizes(dir: string): Array<[string, number]> {
  const entries = fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).length;
  const below = entries.filter((e) => e.isDirectory()).flatMap((e) => folderSizes(`${dir}/${e.name}`));
  return [[dir, files], ...below];
}

/** The folders of `sizes` over `max` files, as `folder: n`. */
export function oversized(sizes: ReadonlyArray<readonly [string, number]>, max: number): string[] {
  return sizes.filter(([, n]) => n > max).map(([dir, n]) => `${dir}: ${n}`);
}

describe(`no folder of the code holds more than ${MAX_FILES} files`, () => {
  const sizes = ['src', 'test', 'scripts'].flatMap((d) => folderSizes(d));

  it('finds the folders', () => {
    expect(sizes.length).toBeGreaterThan(50);
  });

  it('every folder of src/, test/ and scripts/ is within the limit', () => {
    expect(oversized(sizes, MAX_FILES)).toEqual([]);
  });

  it.each<[Array<[string, number]>, string[]]>([
    [[['a', 20]], []],
    [[['a', 21]], ['a: 21']],
    [
      [
        ['a', 3],
        ['a/b', 25],
      ],
      ['a/b: 25'],
    ],
    [[], []],
  ])('oversized(%j, 20) is %j', (sizes, expected) => {
    expect(oversized(sizes, 20)).toEqual(expected);
  });
});
