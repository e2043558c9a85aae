/**
 * Web Crypto's `crypto.subtle.digest` runs on libuv's thread pool: its promise settles in a later
 * turn of the event loop, after any number of timers. The Canton library hashes a prepared
 * transaction with one digest per node, per metadata and per input contract, so a hash would take
 * several turns, and under an injected fake clock (the simulator, the lab, the tests) simulated
 * time would run on between prepare and sign by whatever the next timers are — a seeded run would
 * no longer be reproducible.
 *
 * {@link withInTurnDigest} runs a computation while `crypto.subtle.digest` answers SHA-1/256/384/512
 * from `node:crypto`'s one-shot hash, as an already-settled promise: the same bytes, computed in
 * the same turn (and cheaper: no thread hop). The override is an own property on the one
 * `SubtleCrypto` instance, counted, so overlapping computations nest, and removed when the last
 * one ends. Any other algorithm (or a key-derivation input it cannot read) goes to Web Crypto.
 */
import { createHash, type webcrypto } from 'node:crypto';

type SubtleCrypto = webcrypto.SubtleCrypto;
type Digest = SubtleCrypto['digest'];

const NODE_ALGORITHMS: Readonly<Record<string, string>> = {
  'SHA-1': 'sha1',
  'SHA-256': 'sha256',
  'SHA-384': 'sha384',
  'SHA-512': 'sha512',
};

let depth = 0;

function bytesOf(data: unknown): Uint8Array | null {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return null;
}

function inTurn(webCrypto: Digest): Digest {
  return function digest(
    algorithm: webcrypto.AlgorithmIdentifier,
    data: webcrypto.BufferSource,
  ): Promise<ArrayBuffer> {
    const name = typeof algorithm === 'string' ? algorithm : algorithm.name;
    const nodeName = NODE_ALGORITHMS[name.toUpperCase()];
    const bytes = bytesOf(data);
    if (nodeName === undefined || bytes === null) return webCrypto(algorithm, data);
    const out = createHash(nodeName).update(bytes).digest();
    return Promise.resolve(out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength));
  };
}

/**
 * Runs `fn` with in-turn SHA digests (see the module doc) and returns its result. `fn` must not
 * wait on timers or IO: the override lasts until it settles.
 */
export async function withInTurnDigest<T>(fn: () => Promise<T>): Promise<T> {
  const subtle: SubtleCrypto = globalThis.crypto.subtle;
  if (depth === 0) {
    const proto = Object.getPrototypeOf(subtle) as SubtleCrypto;
    const webCrypto: Digest = (algorithm, data) => proto.digest.call(subtle, algorithm, data);
    Object.defineProperty(subtle, 'digest', {
      value: inTurn(webCrypto),
      configurable: true,
      writable: true,
    });
  }
  depth += 1;
  try {
    return await fn();
  } finally {
    depth -= 1;
    if (depth === 0) delete (subtle as { digest?: Digest }).digest;
  }
}
