/**
 * Plain-text tables for operator output: left-aligned columns separated by two spaces, a header
 * row, no trailing spaces. Cells are strings: money and quantities arrive already formatted.
 */

/** Renders `rows` under `headers`, each line ending with a newline; `indent` prefixes every line. */
export function formatTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  indent = '',
): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    `${indent}${widths
      .map((w, i) => (cells[i] ?? '').padEnd(w))
      .join('  ')
      .trimEnd()}\n`;
  return [line(headers), ...rows.map(line)].join('');
}

/** A long venue id cut to `length` characters with an ellipsis; short ids are kept whole. */
export function shortId(id: string | null | undefined, length = 12): string {
  if (id === null || id === undefined || id === '') return '-';
  return id.length <= length ? id : `${id.slice(0, length)}…`;
}
