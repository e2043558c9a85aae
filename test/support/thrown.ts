import { expect } from 'vitest';

/** What `fn` throws; a test that calls this fails when `fn` returns instead. */
export function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

/** What `fn` throws, asserted to be a `type` (so a return, or another error, fails the test). */
export function errorOf<E>(fn: () => unknown, type: abstract new (...args: never[]) => E): E {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(type);
  return caught as E;
}
