/**
 * The setup every operator command (`orders`, `cancel-all`, `status`) shares, in the order the
 * `check` command established: configuration validated first (exit 2 before any venue call),
 * then the API key, then the venue client, then (for commands that sign) the signing key.
 */
import { causeCode } from '../../daemon/preflight.js';
import { loadConfigOrExit } from '../../config/load.js';
import type { MmConfig, SigningConfig, VenueConfig } from '../../config/schema.js';
import { scrubText } from '../../logging/redact.js';
import { KeyFileError } from '../../signing/key-file-error.js';
import { loadSigner } from '../../signing/load-signer.js';
import type { Signer } from '../../signing/signer.js';
import type { VenueClient } from '../../venue/client.js';
import { VenueError } from '../../venue/errors.js';
import { createLiveVenueClient } from '../../venue/live-client.js';
import { liveVenueOptions } from '../../daemon/venue-client.js';
import { EXIT, type CommandIo } from '../command.js';

/** A setup step's result: the value, or the exit code the command returns (the reason is printed). */
export type Setup<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly exitCode: number };

/** An error as one line for a person: a venue error shows its code; secrets are scrubbed. */
export function errorText(err: unknown): string {
  if (err instanceof VenueError) {
    // A client-side failure names its cause as `check` does: the DNS or socket error code.
    const cause = err.code.startsWith('CLIENT_') ? causeCode(err.cause) : undefined;
    return scrubText(`${err.code}: ${err.message}${cause === undefined ? '' : ` (${cause})`}`);
  }
  return scrubText(err instanceof Error ? err.message : String(err));
}

/** Prints `ledger-mm <command>: <message>` and the usage to stderr; returns the usage exit code. */
export function usageError(io: CommandIo, command: string, usage: string, message: string): number {
  io.stderr(`ledger-mm ${command}: ${scrubText(message)}\n\n${usage}`);
  return EXIT.USAGE;
}

/**
 * Loads and validates the layered configuration. An invalid one is reported (every bad key) and
 * ends the command with exit 2 before anything is sent.
 */
export function loadOperatorConfig(
  command: string,
  configFiles: readonly string[],
  io: CommandIo,
  usage: string,
): Setup<MmConfig> {
  if (configFiles.some((f) => f === '')) {
    return { ok: false, exitCode: usageError(io, command, usage, '--config needs a file path') };
  }
  const loaded = loadConfigOrExit({ configFiles, env: io.env, cwd: io.cwd }, io);
  return loaded.ok ? { ok: true, value: loaded.config } : { ok: false, exitCode: loaded.exitCode };
}

/**
 * The venue client of an operator command. A missing API key, or venue settings the client
 * refuses, end the command with exit 2 (nothing was sent). Retries are reported on stderr.
 */
export function operatorVenueClient(command: string, venue: VenueConfig, io: CommandIo): Setup<VenueClient> {
  if (venue.apiKey === '') {
    io.stderr(
      `ledger-mm ${command}: no API key configured. Set LEDGER_MM_API_KEY, or point venue.apiKeyFile ` +
        '(LEDGER_MM_API_KEY_FILE) at a file holding it. Nothing was sent to the venue.\n',
    );
    return { ok: false, exitCode: EXIT.USAGE };
  }
  try {
    const client = createLiveVenueClient(
      liveVenueOptions(venue, (e) =>
        io.stderr(
          `ledger-mm ${command}: ${e.endpoint} attempt ${e.attempt} failed (${e.error.code}); ` +
            `retrying in ${e.delayMs} ms\n`,
        ),
      ),
    );
    return { ok: true, value: client };
  } catch (err) {
    io.stderr(
      `ledger-mm ${command}: invalid venue settings: ${errorText(err)}. Nothing was sent to the venue.\n`,
    );
    return { ok: false, exitCode: EXIT.USAGE };
  }
}

/**
 * The configured signer. No key file configured, or one that cannot be loaded (missing,
 * readable by others, malformed), ends the command with exit 2 before anything is sent.
 */
export function operatorSigner(command: string, signing: SigningConfig, io: CommandIo): Setup<Signer> {
  if (signing.keyFile === '') {
    io.stderr(
      `ledger-mm ${command}: no signing key configured: set LEDGER_MM_SIGNING_KEY_FILE or ` +
        'signing.keyFile. Nothing was sent to the venue.\n',
    );
    return { ok: false, exitCode: EXIT.USAGE };
  }
  try {
    const signer = loadSigner({
      keyFile: signing.keyFile,
      publicKeyFormat: signing.publicKeyFormat,
      allowInsecureKeyFile: signing.allowInsecureKeyFile,
      hashLength: signing.hashLength,
    });
    return { ok: true, value: signer };
  } catch (err) {
    // KeyFileError messages name the file and the reason, never key material.
    if (!(err instanceof KeyFileError)) throw err;
    io.stderr(`ledger-mm ${command}: ${err.message}. Nothing was sent to the venue.\n`);
    return { ok: false, exitCode: EXIT.USAGE };
  }
}
