/**
 * `ledger-mm check`: the onboarding preflight (spec section 1) against the configured venue,
 * read-only. Loads and validates the configuration first: an invalid configuration or a missing
 * API key ends the command (exit 2) before anything is sent. A signing key that cannot be loaded
 * is reported as a failed check, next to the venue's answers, rather than ending the command.
 */
import type { SigningConfig } from '../config/schema.js';
import {
  formatPreflight,
  runPreflight,
  type PreflightInput,
  type PreflightReport,
} from '../daemon/startup/preflight.js';
import { apiKeyHandle, scrubText } from '../logging/redact.js';
import { KeyFileError } from '../signing/key-file-error.js';
import { loadSigner } from '../signing/load-signer.js';
import { liveVenueOptions } from '../daemon/startup/venue-client.js';
import { createLiveVenueClient } from '../venue/live-client.js';
import type { VenueClient } from '../venue/client.js';
import { EXIT, type Command, type CommandIo } from './command.js';
import { type HedgeCheckResult, checkHedgeVenues } from '../hedge/hedge-check.js';
import { hedgeSettings } from '../hedge/hedge-settings.js';
import { JSON_OPTION, operatorStartup } from './support/operator-setup.js';
import { PARTY_OPTION, PARTY_USAGE, commandParties, runPerParty } from './support/party-scope.js';
import type { MmConfig } from '../config/schema.js';

const NAME = 'check';

const USAGE = `Usage: ledger-mm check [--config FILE]... [--json] [--party NAME]

Runs the onboarding preflight against the configured venue and prints one line per check:
  api key         GET /account answers (the API key is accepted)
  account status  the account is ACTIVE
  fee exempt      feeExempt is true (if not: stop and contact the operator before trading)
  pairs           every configured pair is listed by GET /pairs and allowed for the account
  balances        GET /balances reads (a warning when a token of the pairs holds nothing)
  signing key     the key file loads and its fingerprint is the one in the account's party id
  hedge ...       per hedged pair (hedge section): the exchange's markets load, the symbol
                  exists, hedge.minOrderBase is not under its minimum, the credentials read the
                  balances (not for a dryRun pair)
Read-only: nothing is placed, cancelled, signed or submitted.

With firm.parties, the preflight runs for every party (or only --party NAME), each with its own
API key file, signing key file and venue URLs; the exit code is the worst party's.

Options:
  -c, --config FILE  A config file layered over config/default.json. Repeatable; later files
                     win, then the files in LEDGER_MM_CONFIG, then LEDGER_MM_* variables.
      --json         Print the report as JSON instead of text.
${PARTY_USAGE}
  -h, --help         Show this help.

The API key comes from LEDGER_MM_API_KEY, else from the file venue.apiKeyFile
(LEDGER_MM_API_KEY_FILE); only its public handle mm_ak_<prefix> is ever printed.
The signing key file comes from signing.keyFile (LEDGER_MM_SIGNING_KEY_FILE).

Exit codes: 0 every check passed (warnings allowed); 1 a check failed; 2 bad usage, invalid
configuration or no API key (nothing was sent to the venue).
`;

/** The signing key's fingerprint, or why it cannot be had (reported as a failed check). */
function signingKey(signing: SigningConfig): PreflightInput['key'] {
  if (signing.keyFile === '') {
    return {
      error:
        'no signing key configured: set LEDGER_MM_SIGNING_KEY_FILE or signing.keyFile ' +
        '(`ledger-mm keygen` creates one)',
    };
  }
  try {
    const signer = loadSigner({
      keyFile: signing.keyFile,
      publicKeyFormat: signing.publicKeyFormat,
      allowInsecureKeyFile: signing.allowInsecureKeyFile,
      hashLength: signing.hashLength,
    });
    return { fingerprint: signer.fingerprint };
  } catch (err) {
    // KeyFileError messages name the file and the reason, never key material.
    if (err instanceof KeyFileError) return { error: err.message };
    throw err;
  }
}

function errorText(err: unknown): string {
  return scrubText(err instanceof Error ? err.message : String(err));
}

async function run(argv: string[], io: CommandIo): Promise<number> {
  // 1. Configuration, fully validated before anything is sent.
  const start = operatorStartup(NAME, argv, io, USAGE, { options: { ...JSON_OPTION, ...PARTY_OPTION } });
  if (!start.ok) return start.exitCode;
  const { config, values } = start.value;
  const json = values.json === true;
  const parties = commandParties(NAME, config, io, USAGE, values.party, 'api-key');
  if (!parties.ok) return parties.exitCode;
  return runPerParty(parties.value, io, json, (party, partyIo) => checkParty(party.config, json, partyIo));
}

/** The preflight of one party. */
async function checkParty(config: MmConfig, json: boolean, io: CommandIo): Promise<number> {
  const { venue } = config;
  if (venue.apiKey === '') {
    io.stderr(
      'ledger-mm check: no API key configured. Set LEDGER_MM_API_KEY, or point venue.apiKeyFile ' +
        '(LEDGER_MM_API_KEY_FILE) at a file holding it. Nothing was sent to the venue.\n',
    );
    return EXIT.USAGE;
  }

  // 2. The signing key: a failure here is a line of the report, not the end of the command.
  const key = signingKey(config.signing);

  // 3. The venue client (vets URLs and options again; the config has already checked them).
  let client: VenueClient;
  try {
    client = createLiveVenueClient(
      liveVenueOptions(venue, (e) =>
        io.stderr(
          `ledger-mm check: ${e.endpoint} attempt ${e.attempt} failed (${e.error.code}); ` +
            `retrying in ${e.delayMs} ms\n`,
        ),
      ),
    );
  } catch (err) {
    io.stderr(`ledger-mm check: invalid venue settings: ${errorText(err)}. Nothing was sent to the venue.\n`);
    return EXIT.USAGE;
  }

  // 4. The preflight.
  const handle = apiKeyHandle(venue.apiKey);
  let report: PreflightReport;
  try {
    report = await runPreflight({ venue: client, key, pairs: config.pairs });
  } finally {
    await client.close();
  }
  // 5. The hedge venue of each hedged pair (none by default).
  const hedge = await checkHedgeVenues(hedgeSettings(config), config.hedge);
  const ok = report.ok && hedge.every((c) => c.status !== 'fail');

  if (json) {
    const out = {
      ok,
      venue: { baseUrl: venue.baseUrl, apiKey: handle },
      pairs: config.pairs,
      checks: report.checks,
      account: report.account ?? null,
      listedPairs: report.pairs ?? null,
      balances: report.balances ?? null,
      hedge,
    };
    io.stdout(`${scrubText(JSON.stringify(out, null, 2))}\n`);
  } else {
    io.stdout(
      `ledger-mm check: ${venue.baseUrl} with API key ${handle}, pairs ${config.pairs.join(', ') || '(none)'}\n\n`,
    );
    io.stdout(scrubText(formatPreflight(report)));
    if (hedge.length > 0) io.stdout(scrubText(formatHedgeChecks(hedge, ok)));
  }
  return ok ? EXIT.OK : EXIT.FAILED;
}

/** The hedge lines, in the preflight's style. */
function formatHedgeChecks(checks: readonly HedgeCheckResult[], ok: boolean): string {
  const mark = { pass: 'PASS', fail: 'FAIL', warn: 'WARN', skip: 'SKIP' } as const;
  const width = Math.max(0, ...checks.map((c) => c.name.length));
  const lines = checks.map((c) => `${mark[c.status]}  ${c.name.padEnd(width)}  ${c.detail}`);
  lines.push(
    '',
    ok ? 'hedge venues passed' : 'hedge venues FAILED: do not trade until every FAIL is resolved',
  );
  return `\n${lines.join('\n')}\n`;
}

/** The `check` subcommand. */
export const checkCommand: Command = {
  name: NAME,
  usage: USAGE,
  run,
};
