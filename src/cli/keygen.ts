/**
 * `ledger-mm keygen`: creates a new Ed25519 signing key file (mode 0600) and prints what
 * onboarding needs: the public key in both encodings and its ledger fingerprint. The private key
 * is never printed.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generateKeyFile, type GeneratedKeyFile } from '../signing/generate-key-file.js';
import { KeyFileError } from '../signing/key-file-error.js';
import { KEY_FILE_FORMATS, type KeyFileFormat } from '../signing/key-file.js';
import { EXIT, type Command, type CommandIo } from './command.js';

/** The environment variable the daemon reads the key file path from. */
const KEY_FILE_ENV = 'LEDGER_MM_SIGNING_KEY_FILE';

const USAGE = `Usage: ledger-mm keygen --out FILE [--format hex|base64|pem] [--force]

Creates a new Ed25519 signing key and writes it to FILE, readable by its owner only (0600).
Prints the public key (raw and SPKI, base64) and its ledger fingerprint for onboarding.
The private key is never printed.

Options:
  -o, --out FILE       Where to write the key (required). Relative to the working directory.
  -f, --format FORMAT  How the 32-byte seed is encoded: hex (default), base64, or pem (PKCS#8).
      --force          Replace FILE if it exists (the old key is lost unless backed up).
  -h, --help           Show this help.

Exit codes: 0 written; 1 could not write; 2 bad usage, or FILE exists without --force.
`;

function isKeyFileFormat(value: string): value is KeyFileFormat {
  return (KEY_FILE_FORMATS as readonly string[]).includes(value);
}

/** Quotes a path for a POSIX shell when it contains anything beyond the safe characters. */
function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

function usageError(io: CommandIo, message: string): number {
  io.stderr(`ledger-mm keygen: ${message}\n\n${USAGE}`);
  return EXIT.USAGE;
}

async function run(argv: string[], io: CommandIo): Promise<number> {
  let values: { out?: string; format?: string; force?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        out: { type: 'string', short: 'o' },
        format: { type: 'string', short: 'f' },
        force: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    return usageError(io, err instanceof Error ? err.message : String(err));
  }

  if (values.help === true) {
    io.stdout(USAGE);
    return EXIT.OK;
  }
  if (values.out === undefined || values.out === '') return usageError(io, '--out FILE is required');
  const format = values.format ?? 'hex';
  if (!isKeyFileFormat(format)) {
    return usageError(io, `--format must be one of ${KEY_FILE_FORMATS.join(', ')}, got "${format}"`);
  }

  const path = resolve(io.cwd, values.out);
  let generated: GeneratedKeyFile;
  try {
    generated = generateKeyFile(path, { format, force: values.force === true });
  } catch (err) {
    if (err instanceof KeyFileError) {
      io.stderr(
        `ledger-mm keygen: ${err.message}` +
          (err.code === 'KEY_FILE_EXISTS' ? ' (pass --force to replace it)' : '') +
          '\n',
      );
      return err.code === 'KEY_FILE_EXISTS' ? EXIT.USAGE : EXIT.FAILED;
    }
    throw err;
  }

  io.stdout(
    [
      `Wrote a new Ed25519 signing key to ${generated.path} (mode 0600, ${generated.format}).`,
      'Keep it secret and backed up: it cannot be recovered, and the venue never sees it.',
      '',
      `Public key (raw, base64):   ${generated.raw}`,
      `Public key (spki, base64):  ${generated.spki}`,
      `Ledger fingerprint:         ${generated.fingerprint}`,
      '',
      'Onboarding: a wallet party created with this key as its namespace key has a party id ending in',
      `  ::${generated.fingerprint}`,
      'and that party id is what you register with the operator.',
      '',
      'The daemon sends the raw form unless LEDGER_MM_PUBLIC_KEY_FORMAT=spki.',
      '',
      'Point the daemon at the key:',
      `  export ${KEY_FILE_ENV}=${shellQuote(generated.path)}`,
      '',
    ].join('\n'),
  );
  return EXIT.OK;
}

/** The `keygen` subcommand. */
export const keygenCommand: Command = {
  name: 'keygen',
  usage: USAGE,
  run,
};
