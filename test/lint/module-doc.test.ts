/**
 * The house rule "the module's doc comment comes first in the file", checked over every file of
 * `src/`: the file opens with a `/** … *\/` block, before its imports (after a `#!` line, for an
 * executable entry). No file is exempt.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sourceFiles(rel);
    return e.name.endsWith('.ts') ? [rel] : [];
  });
}

/** True when the text opens with a doc comment (after a shebang line and blank lines). */
export function opensWithDoc(text: string): boolean {
  const body = text.startsWith('#!') ? text.slice(text.indexOf('\n') + 1) : text;
  return body.trimStart().startsWith('/**');
}

describe('module doc comment first', () => {
  const files = sourceFiles('src');

  it('finds the source files', () => {
    expect(files.length).toBeGreaterThan(300);
  });

  it('every file of src/ opens with its module doc', () => {
    const missing = files.filter((f) => !opensWithDoc(fs.readFileSync(path.join(ROOT, f), 'utf8')));
    expect(missing).toEqual([]);
  });

  it.each([
    ['/**\n * A module.\n */\nimport x from "y";\n', true],
    ['\n/** One line. */\nexport const a = 1;\n', true],
    ['#!/usr/bin/env node\n/**\n * An entry.\n */\nawait main();\n', true],
    ['#!/usr/bin/env node\nimport x from "y";\n/** After the imports. */\n', false],
    ['import x from "y";\n/** After the imports. */\n', false],
    ['// a line comment\n/** doc */\n', false],
    ['/* not a doc */\n', false],
    ['', false],
  ])('opensWithDoc(%j) is %s', (text, expected) => {
    expect(opensWithDoc(text)).toBe(expected);
  });
});
