import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { brokenPipeTolerant } from '../../src/cli/command.js';

class FakeStream extends EventEmitter {
  readonly written: string[] = [];
  write(text: string): boolean {
    this.written.push(text);
    return true;
  }
}

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`write ${code}`), { code });
}

describe('brokenPipeTolerant (`ledger-mm orders | head -1`)', () => {
  it('writes until the reader goes away, then drops output without an error', () => {
    const stream = new FakeStream();
    const write = brokenPipeTolerant(stream);
    write('one\n');
    expect(() => stream.emit('error', errno('EPIPE'))).not.toThrow();
    write('two\n');
    expect(stream.written).toEqual(['one\n']);
  });

  it('still throws any other stream error', () => {
    const stream = new FakeStream();
    brokenPipeTolerant(stream);
    expect(() => stream.emit('error', errno('EIO'))).toThrow(/EIO/);
  });
});
