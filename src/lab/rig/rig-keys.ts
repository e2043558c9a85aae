/**
 * Where a rig's parties get their signing keys. Each source gives one {@link RigKey} per party:
 * its public key (registered on the party's simulated account) and either the signer itself
 * (the daemon built in-process is handed it) or the key file the daemon loads, as `run` does.
 *
 * - {@link seededKeys}: derived from the run's seed (`ledger-mm simulate`: the same inputs give
 *   the same run, party 1's key that of a one-party run);
 * - {@link fixedKey}: a throwaway seed filled with one byte (the benches);
 * - {@link signerKeys}: signers the caller made (a bench that meters its signer);
 * - {@link keyFiles}: throwaway key files written under a directory (paper trading).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { signerFromSeed } from '../../signing/ed25519-signer.js';
import { generateKeyFile } from '../../signing/generate-key-file.js';
import type { Signer } from '../../signing/signer.js';

/** One party's signing key. */
export interface RigKey {
  /** Base64, as the venue registers it. */
  readonly publicKey: string;
  /** The signer, when the rig's caller builds the daemon itself. */
  readonly signer: Signer | null;
  /** The key file (mode 0600), when the daemon loads its key as `run` does. */
  readonly keyFile: string | null;
}

/** A 32-byte seed derived from the run's seed and a label. */
function derivedSeed(seed: number | string, label: string): Uint8Array {
  return createHash('sha256')
    .update(`ledger-mm simulate\0${String(seed)}\0${label}`)
    .digest();
}

/** `n` signers derived from the run's seed; party 1's is the one-party run's. */
export function seededKeys(seed: number | string, n: number): RigKey[] {
  return Array.from({ length: n }, (_, i) =>
    signerKey(signerFromSeed(derivedSeed(seed, i === 0 ? 'signing-key' : `signing-key/${i + 1}`), 'raw')),
  );
}

/** One throwaway signer whose seed is 32 times `byte`. */
export function fixedKey(byte: number): RigKey {
  return signerKey(signerFromSeed(new Uint8Array(32).fill(byte), 'raw'));
}

/** The caller's signers. */
export function signerKeys(signers: readonly Signer[]): RigKey[] {
  return signers.map(signerKey);
}

/**
 * `n` throwaway key files under `dir` (replaced when present): `paper-signing.key` for the first
 * party, `paper-signing.p<i>.key` for the others.
 */
export function keyFiles(dir: string, n: number): RigKey[] {
  return Array.from({ length: n }, (_, i) => {
    const keyFile = join(dir, i === 0 ? 'paper-signing.key' : `paper-signing.p${i + 1}.key`);
    const generated = generateKeyFile(keyFile, { force: true });
    return { publicKey: generated.raw, signer: null, keyFile };
  });
}

function signerKey(signer: Signer): RigKey {
  return { publicKey: signer.publicKey, signer, keyFile: null };
}
