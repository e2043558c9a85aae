import { EventEmitter } from 'node:events';
import type { HandledSignal, ProcessSeam } from '../../src/daemon/signals.js';

/** A process seam for the signal handlers: send signals with `emit`, read `exits`. */
export class FakeProcess extends EventEmitter implements ProcessSeam {
  readonly exits: number[] = [];
  override on(signal: HandledSignal, listener: () => void): this {
    return super.on(signal, listener);
  }
  override off(signal: HandledSignal, listener: () => void): this {
    return super.off(signal, listener);
  }
  exit(code: number): void {
    this.exits.push(code);
  }
}
