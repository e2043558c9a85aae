/**
 * The house rule "the module's doc comment comes first in the file", checked over every file of
 * `src/`: the file opens with a `/** … *\/` block (before its imports). Files that break it today
 * are listed in `module-doc-baseline.json`; the list may only shrink (a listed file that complies
 * fails the test until it is removed from the list, and a listed file that no longer exists too).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BASELINE: readonly string[] = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, 'module-doc-baseline.json'), 'utf8'),
) as string[];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sourceFiles(rel);
    return e.name.endsWith('.ts') ? [rel] : [];
  });
}

/** True when the text opens with a doc comment (after blank lines). */
export function opensWithDoc(text: string): boolean {
  return text.trimStart().startsWith('/**');
}

describe('module doc comment first', () => {
  const files = sourceFiles('src');

  it('finds the source files', () => {
    expect(files.length).toBeGreaterThan(300);
  });

  it('every file of src/ outside the baseline opens with its module doc', () => {
    const missing = files.filter(
      (f) => !BASELINE.includes(f) && !opensWithDoc(fs.readFileSync(path.join(ROOT, f), 'utf8')),
    );
    expect(missing).toEqual([]);
  });

  it('the baseline only lists files that exist and still break the rule', () => {
    const stale = BASELINE.filter(
      (f) => !files.includes(f) || opensWithDoc(fs.readFileSync(path.join(ROOT, f), 'utf8')),
    );
    expect(stale).toEqual([]);
  });

  it.each([
    ['/**\n * A module.\n */\nimport x from "y";\n', true],
    ['\n/** One line. */\nexport const a = 1;\n', true],
    ['import x from "y";\n/** After the imports. */\n', false],
    ['// a line comment\n/** doc */\n', false],
    ['/* not a doc */\n', false],
  ])('opensWithDoc(%j) is %s', (text, expected) => {
    expect(opensWithDoc(text)).toBe(expected);
  });
});
