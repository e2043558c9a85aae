/**
 * The parties an operator command acts on. A config without `firm.parties` has one party (the
 * API key, signing key and journal of `venue.*`, `signing.keyFile` and `store.path`), and the
 * command runs exactly as it always did. With `firm.parties` the command runs once per party,
 * or for the one `--party NAME` names: each run gets the config as that party sees it (its API
 * key, its venue URLs, its signing key file, its journal as `store.path`; the same rules as the
 * daemon's, `daemon/startup/party-keys.ts` and `partyStorePath`), so every command's own logic,
 * its journal-before-IO discipline and its store lock stay per party.
 *
 * {@link runPerParty} runs a command's body for every selected party at once (a cancel-all of
 * four parties takes one party's time), each party's stdout buffered and printed in the order of
 * the list under a `== party NAME ==` heading; stderr lines are passed on at once, tagged with
 * the party. With `--json` the parties' reports are gathered into one document:
 * `{"parties": [{"party": NAME, "exitCode": N, ...its report}]}`. The exit code is the worst.
 */
import path from 'node:path';
import { ConfigError } from '../../config/errors.js';
import { resolveApiKey } from '../../config/load.js';
import type { MmConfig } from '../../config/schema.js';
import type { PartyConfig } from '../../config/sections/firm.js';
import { partyStorePath } from '../../daemon/startup/party-store.js';
import { loadParties, PartyKeyError } from '../../daemon/startup/party-keys.js';
import { scrubText } from '../../logging/redact.js';
import { EXIT, type CommandIo } from '../command.js';
import { usageError, type Setup } from './operator-setup.js';

/** The `--party NAME` option (no short form: `-p` is `--pair`). */
export const PARTY_OPTION = { party: { type: 'string' } } as const;

/** The `--party` lines of a command's usage. */
export const PARTY_USAGE = `      --party NAME   With firm.parties: only this party (default: every party, each
                     with its own API key, signing key and journal).`;

/** One party a command acts on. */
export interface CommandParty {
  /** Its name in `firm.parties`; null for the one party of a config without them. */
  readonly name: string | null;
  /** The config as this party sees it (see the module doc). */
  readonly config: MmConfig;
}

/**
 * What of the party's keys the command needs read up front: `keys` both (a command that signs;
 * an unusable key file ends the command with exit 2 before anything is sent), `api-key` the API
 * key only (the signing key file is still the party's, for the command to load itself), `none`
 * neither (a journal-only command).
 */
export type PartyKeysNeeded = 'keys' | 'api-key' | 'none';

/** The parties of `config` the command acts on; `--party` is `party`. See the module doc. */
export function commandParties(
  command: string,
  config: MmConfig,
  io: CommandIo,
  usage: string,
  party: string | undefined,
  needs: PartyKeysNeeded,
): Setup<CommandParty[]> {
  const listed = config.firm.parties;
  if (listed.length === 0) {
    if (party === undefined) return { ok: true, value: [{ name: null, config }] };
    const message = `--party ${party}: no parties are configured (firm.parties is empty); without --party the command acts on the one party of venue.apiKey`;
    return { ok: false, exitCode: usageError(io, command, usage, message) };
  }
  const chosen = listed.flatMap((p, index) =>
    party === undefined || p.name === party ? [{ p, index }] : [],
  );
  if (chosen.length === 0) {
    const names = listed.map((p) => p.name).join(', ');
    const message = `--party ${party}: not a party of firm.parties (${names})`;
    return { ok: false, exitCode: usageError(io, command, usage, message) };
  }
  try {
    const apiKeys = apiKeysOf(config, chosen, io.cwd, needs);
    return {
      ok: true,
      value: chosen.map(({ p, index }, i) => ({
        name: p.name,
        config: partyConfig(config, p, index, apiKeys[i]!, io.cwd),
      })),
    };
  } catch (err) {
    if (!(err instanceof PartyKeyError)) throw err;
    io.stderr(`ledger-mm ${command}: ${scrubText(err.message)}. Nothing was sent to the venue.\n`);
    return { ok: false, exitCode: EXIT.USAGE };
  }
}

/** Each chosen party's API key ('' when not needed); throws PartyKeyError. */
function apiKeysOf(
  config: MmConfig,
  chosen: readonly { readonly p: PartyConfig }[],
  cwd: string,
  needs: PartyKeysNeeded,
): string[] {
  if (needs === 'none') return chosen.map(() => '');
  if (needs === 'keys') {
    // The daemon's own reading of the key files: both keys, with the same checks and messages.
    const firm = { ...config.firm, parties: chosen.map(({ p }) => p) };
    return loadParties({ ...config, firm }, cwd).map((identity) => identity.apiKey);
  }
  return chosen.map(({ p }) => {
    try {
      return resolveApiKey({ apiKey: '', apiKeyFile: p.apiKeyFile }, cwd);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      throw new PartyKeyError(
        `party ${p.name}: ${err.issues.map((i) => i.reason).join('; ')} (${p.apiKeyFile})`,
      );
    }
  });
}

/** The config as party `p` (at `index` in `firm.parties`) sees it. */
function partyConfig(config: MmConfig, p: PartyConfig, index: number, apiKey: string, cwd: string): MmConfig {
  const storePath = p.storePath === undefined ? undefined : path.resolve(cwd, p.storePath);
  return {
    ...config,
    venue: {
      ...config.venue,
      apiKey,
      apiKeyFile: p.apiKeyFile,
      baseUrl: p.baseUrl ?? config.venue.baseUrl,
      submitUrl: p.submitUrl ?? config.venue.submitUrl,
    },
    signing: { ...config.signing, keyFile: path.resolve(cwd, p.signingKeyFile) },
    store: {
      ...config.store,
      path: partyStorePath(
        config.store.path,
        { name: p.name, ...(storePath === undefined ? {} : { storePath }) },
        index,
      ),
    },
  };
}

/** A command body for one party, writing to `io`. */
export type PartyRun = (party: CommandParty, io: CommandIo) => Promise<number> | number;

/**
 * Runs `body` for each party (see the module doc). One unnamed party: `body` with `io` itself,
 * unchanged. `json`: the parties' JSON reports gathered into one document.
 */
export async function runPerParty(
  parties: readonly CommandParty[],
  io: CommandIo,
  json: boolean,
  body: PartyRun,
): Promise<number> {
  const only = parties[0];
  if (parties.length === 1 && only !== undefined && only.name === null) return body(only, io);
  const outputs = parties.map((): PartyOutput => ({ text: '', done: false, code: EXIT.OK }));
  let flushed = 0;
  const flush = (): void => {
    while (!json && flushed < parties.length && outputs[flushed]!.done) {
      const heading = `${flushed === 0 ? '' : '\n'}== party ${parties[flushed]!.name} ==\n`;
      io.stdout(heading + outputs[flushed]!.text);
      flushed += 1;
    }
  };
  await Promise.all(
    parties.map(async (party, i) => {
      const out = outputs[i]!;
      const partyIo: CommandIo = {
        ...io,
        stdout: (t) => (out.text += t),
        stderr: (t) => io.stderr(tagLines(t, party.name ?? '')),
      };
      try {
        out.code = await body(party, partyIo);
      } catch (err) {
        io.stderr(
          tagLines(
            `ledger-mm: ${scrubText(err instanceof Error ? err.message : String(err))}\n`,
            party.name ?? '',
          ),
        );
        out.code = EXIT.FAILED;
      }
      out.done = true;
      flush();
    }),
  );
  if (json) {
    const reports = parties.map((party, i) => ({
      party: party.name,
      exitCode: outputs[i]!.code,
      ...parsed(outputs[i]!.text),
    }));
    io.stdout(`${JSON.stringify({ parties: reports }, null, 2)}\n`);
  }
  return Math.max(...outputs.map((o) => o.code));
}

/** A party's buffered stdout and exit code. */
interface PartyOutput {
  text: string;
  done: boolean;
  code: number;
}

/** Each line of `text` prefixed with `[party NAME] `. */
function tagLines(text: string, name: string): string {
  return text.replace(/^(?=.)/gm, `[party ${name}] `);
}

/** A party's JSON report, or what stands in for one the command did not print. */
function parsed(text: string): Record<string, unknown> {
  if (text.trim() === '') return { report: null };
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : { report: value };
  } catch {
    return { report: null, output: text };
  }
}
