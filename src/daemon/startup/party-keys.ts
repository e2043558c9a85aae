/**
 * The firm's parties from config (`firm.parties`), keys read: each party's API key from its file
 * (trimmed, never logged) and its Ed25519 signing key from its key file, with the same checks as
 * the single party's (`signing.*`: format, permissions). Paths are relative to the working
 * directory. A party whose files cannot be used is a clear error naming the party and the file;
 * nothing is sent to the venue before every party's keys are read.
 */
import path from 'node:path';
import { resolveApiKey } from '../../config/load.js';
import type { MmConfig } from '../../config/schema.js';
import { ConfigError } from '../../config/errors.js';
import { KeyFileError } from '../../signing/key-file-error.js';
import { loadSigner } from '../../signing/load-signer.js';
import type { PartyIdentity } from './party-identity.js';

/** Why a party's keys could not be read. */
export class PartyKeyError extends Error {
  override readonly name = 'PartyKeyError';
}

/** The configured parties, keys read; [] when `firm.parties` is empty. Throws PartyKeyError. */
export function loadParties(config: MmConfig, cwd: string): PartyIdentity[] {
  return config.firm.parties.map((p) => {
    let apiKey: string;
    try {
      apiKey = resolveApiKey({ apiKey: '', apiKeyFile: p.apiKeyFile }, cwd);
    } catch (err) {
      const reason = err instanceof ConfigError ? err.issues.map((i) => i.reason).join('; ') : String(err);
      throw new PartyKeyError(`party ${p.name}: ${reason} (${p.apiKeyFile})`);
    }
    let signer;
    try {
      signer = loadSigner({
        keyFile: path.resolve(cwd, p.signingKeyFile),
        publicKeyFormat: config.signing.publicKeyFormat,
        allowInsecureKeyFile: config.signing.allowInsecureKeyFile,
        hashLength: config.signing.hashLength,
      });
    } catch (err) {
      if (err instanceof KeyFileError) throw new PartyKeyError(`party ${p.name}: ${err.message}`);
      throw err;
    }
    return {
      name: p.name,
      signer,
      apiKey,
      ...(p.baseUrl === undefined ? {} : { baseUrl: p.baseUrl }),
      ...(p.submitUrl === undefined ? {} : { submitUrl: p.submitUrl }),
      ...(p.storePath === undefined ? {} : { storePath: path.resolve(cwd, p.storePath) }),
      ...(p.pairs === undefined ? {} : { pairs: p.pairs }),
      ...(p.sides === undefined ? {} : { sides: p.sides }),
    };
  });
}
