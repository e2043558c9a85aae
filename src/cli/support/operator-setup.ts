/**
 * The setup every operator command (`check`, `status`, `orders`, `cancel-all`, `watchdog`)
 * shares, in the order the `check` command established: the arguments (`--config FILE...`,
 * `--help` and the command's own options, strictly), then the configuration, validated (exit 2
 * before any venue call), then the API key and the venue client, and for commands that sign the
 * signing key. Each step prints its own reason and hands back the exit code.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { causeCode } from '../../daemon/startup/preflight.js';
import { loadConfigOrExit } from '../../config/load.js';
import type { MmConfig, SigningConfig, VenueConfig } from '../../config/schema.js';
import { scrubText } from '../../logging/redact.js';
import { KeyFileError } from '../../signing/key-file-error.js';
import { loadSigner } from '../../signing/load-signer.js';
import type { Signer } from '../../signing/signer.js';
import type { VenueClient } from '../../venue/client.js';
import { VenueError } from '../../venue/errors.js';
import { createLiveVenueClient } from '../../venue/live-client.js';
import { liveVenueOptions } from '../../daemon/startup/venue-client.js';
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

/** A command's own options, as `parseArgs` takes them. */
type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** The options every operator command takes. */
const COMMON_OPTIONS = {
  config: { type: 'string', short: 'c', multiple: true },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** `--json`, for the commands that can print JSON instead of text. */
export const JSON_OPTION = { json: { type: 'boolean', default: false } } as const;

/** What `--config`, `--help` and a command's own `options` parse to. */
export type OperatorValues<O extends ParseArgsOptionsConfig> = ReturnType<
  typeof parseArgs<{
    args: string[];
    options: typeof COMMON_OPTIONS & O;
    strict: true;
    allowPositionals: false;
  }>
>['values'];

/**
 * Parses `argv` of `ledger-mm <command>`: `--config FILE` (repeatable), `--help` and `options`,
 * strictly (no positionals, no unknown option). Bad usage prints the error and `usage` to stderr
 * and ends the command with exit 2; `--help` prints `usage` to stdout and ends it with exit 0.
 */
export function parseOperatorArgs<const O extends ParseArgsOptionsConfig>(
  command: string,
  argv: string[],
  io: CommandIo,
  usage: string,
  options?: O,
): Setup<OperatorValues<O>> {
  let values: OperatorValues<O>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { ...options, ...COMMON_OPTIONS } as typeof COMMON_OPTIONS & O,
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    return { ok: false, exitCode: usageError(io, command, usage, errorText(err)) };
  }
  if ((values as { help?: boolean }).help === true) {
    io.stdout(usage);
    return { ok: false, exitCode: EXIT.OK };
  }
  return { ok: true, value: values };
}

/** What {@link operatorStartup} hands a command. */
export interface OperatorStart<V> {
  /** The parsed options, `config` and `help` included. */
  readonly values: V;
  readonly config: MmConfig;
}

/**
 * The start of an operator command: its arguments ({@link parseOperatorArgs}), then `check` on
 * them (a message is a usage error, exit 2), then the layered configuration
 * ({@link loadOperatorConfig}). Nothing is sent to the venue.
 */
export function operatorStartup<const O extends ParseArgsOptionsConfig>(
  command: string,
  argv: string[],
  io: CommandIo,
  usage: string,
  spec: { readonly options?: O; readonly check?: (values: OperatorValues<O>) => string | null } = {},
): Setup<OperatorStart<OperatorValues<O>>> {
  const args = parseOperatorArgs(command, argv, io, usage, spec.options);
  if (!args.ok) return args;
  const problem = spec.check?.(args.value) ?? null;
  if (problem !== null) return { ok: false, exitCode: usageError(io, command, usage, problem) };
  const configFiles = (args.value as { config?: string[] }).config ?? [];
  const loaded = loadOperatorConfig(command, configFiles, io, usage);
  if (!loaded.ok) return loaded;
  return { ok: true, value: { values: args.value, config: loaded.value } };
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

/**
 * What a command that signs needs, in this order: the signer ({@link operatorSigner}), then the
 * venue client ({@link operatorVenueClient}). Either failing ends the command with exit 2 before
 * anything is sent; the client, once returned, is the caller's to close.
 */
export function operatorSigning(
  command: string,
  config: MmConfig,
  io: CommandIo,
): Setup<{ readonly signer: Signer; readonly client: VenueClient }> {
  const signer = operatorSigner(command, config.signing, io);
  if (!signer.ok) return signer;
  const client = operatorVenueClient(command, config.venue, io);
  if (!client.ok) return client;
  return { ok: true, value: { signer: signer.value, client: client.value } };
}
