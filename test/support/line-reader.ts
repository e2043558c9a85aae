import type { Readable } from 'node:stream';

/**
 * Reads `stream` as UTF-8 and calls `onLine` for every non-blank line, whole lines only (a line
 * split across chunks waits for its newline); `afterChunk` runs after each chunk's lines.
 */
export function onLines(stream: Readable, onLine: (line: string) => void, afterChunk?: () => void): void {
  let buffer = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.trim() !== '') onLine(line);
    }
    afterChunk?.();
  });
}
