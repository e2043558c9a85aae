import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type * as Ed25519 from '../../src/signing/ed25519.js';

// noble (the reference) made to disagree with node:crypto, as a broken OpenSSL or build would.
vi.mock('../../src/signing/ed25519.js', async (importOriginal) => {
  const real = await importOriginal<typeof Ed25519>();
  return {
    ...real,
    ed25519Sign: (message: Uint8Array, seed: Uint8Array) => {
      const sig = real.ed25519Sign(message, seed);
      sig[63] = (sig[63] ?? 0) ^ 1;
      return sig;
    },
  };
});

const { signerFromSeed } = await import('../../src/signing/ed25519-signer.js');

describe('the signer self-check', () => {
  it('refuses to build a signer when node:crypto and noble disagree on its key', () => {
    expect(() => signerFromSeed(randomBytes(32))).toThrow(/self-check failed/);
  });
});
