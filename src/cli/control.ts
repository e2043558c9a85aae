/**
 * `ledger-mm pause` and `ledger-mm resume`: an operator's pause and resume of the running
 * daemon's quoting, without a restart, through its control endpoint (`POST /control/pause`,
 * `/control/resume` on the metrics server). A pause cancels the scope's quotes and places nothing
 * there; it is journaled and outlives a restart; `resume` lifts it (and a kill switch's pause).
 */
import fs from 'node:fs';
import { scrubText } from '../logging/redact.js';
import { EXIT, type Command, type CommandIo } from './command.js';
import { CONTROL_TIMEOUT_MS, callControl, controlUrl } from './support/control-client.js';
import { renderTree } from './support/daemon-status.js';
import { errorText, operatorStartup } from './support/operator-setup.js';

type Action = 'pause' | 'resume';

function usage(action: Action): string {
  const what =
    action === 'pause'
      ? `Pauses the running daemon's quoting in a scope: its quotes there are cancelled (through the
cancel pool) and nothing is placed there until \`ledger-mm resume\`. The pause is journaled:
it outlives a restart. Without --pair and --side: every pair, both sides.`
      : `Resumes the running daemon's quoting in a scope: every pause within it is lifted (an
operator's, and the kill switch's), and the next quote cycle quotes there again. A wider pause
(all pairs, when resuming one pair) still holds; the answer names it. Without --pair and
--side: everything.`;
  return `Usage: ledger-mm ${action} [--config FILE]... [--pair PAIR] [--side BUY|SELL] [--url URL] [--token-file FILE] [--json]

${what}

The daemon is found where it listens, from the same config files and environment as the daemon:
http://{metrics.host}:{metrics.port}/control (LEDGER_MM_METRICS_HOST, LEDGER_MM_METRICS_PORT).
The token is read from control.tokenFile (LEDGER_MM_CONTROL_TOKEN_FILE); without one the
daemon takes requests from loopback only.

Options:
  -c, --config FILE      A config file layered over config/default.json. Repeatable.
  -p, --pair PAIR        Only this pair, e.g. BTC/USDC.
  -s, --side SIDE        Only this side, BUY or SELL (of --pair, or of every pair).
      --url URL          The control endpoint, e.g. http://10.0.0.5:9464/control (overrides
                         metrics.host and metrics.port).
      --token-file FILE  The file holding the bearer token (overrides control.tokenFile).
      --json             Print the daemon's answer as JSON.
  -h, --help             Show this help.

Exit codes: 0 done; 1 the daemon refused (a missing or wrong token: 401/403; not started yet:
503) or could not be reached; 2 bad usage or invalid configuration.
`;
}

const OPTIONS = {
  pair: { type: 'string', short: 'p' },
  side: { type: 'string', short: 's' },
  url: { type: 'string' },
  'token-file': { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

async function run(action: Action, argv: string[], io: CommandIo): Promise<number> {
  const USAGE = usage(action);
  const start = operatorStartup(action, argv, io, USAGE, {
    options: OPTIONS,
    check: (v) => {
      if (v.side !== undefined && !['BUY', 'SELL'].includes(v.side.toUpperCase()))
        return `--side must be BUY or SELL, not ${JSON.stringify(v.side)}`;
      if (v.pair !== undefined && v.pair.trim() === '') return '--pair needs a pair such as BTC/USDC';
      if (v.url !== undefined && !/^https?:\/\//.test(v.url)) return '--url must be an http(s) URL';
      return null;
    },
  });
  if (!start.ok) return start.exitCode;
  const { config, values } = start.value;
  if (values.pair !== undefined && !config.pairs.includes(values.pair)) {
    io.stderr(
      `ledger-mm ${action}: ${values.pair} is not a configured pair (${config.pairs.join(', ') || 'none'})\n`,
    );
    return EXIT.USAGE;
  }
  const tokenFile = values['token-file'] ?? config.control.tokenFile;
  let token: string | null = null;
  if (tokenFile !== '') {
    try {
      token = fs.readFileSync(tokenFile, 'utf8').trim();
    } catch (err) {
      io.stderr(`ledger-mm ${action}: the token file ${tokenFile} cannot be read: ${errorText(err)}\n`);
      return EXIT.USAGE;
    }
  }
  const body: Record<string, unknown> = {
    ...(values.pair === undefined ? {} : { pair: values.pair }),
    ...(values.side === undefined ? {} : { side: values.side.toUpperCase() }),
  };
  const base = values.url ?? controlUrl(config.metrics);
  const call = await callControl(base, action, body, token, CONTROL_TIMEOUT_MS);
  if (call.kind === 'unreachable') {
    io.stderr(
      `ledger-mm ${action}: the daemon could not be reached at ${call.url}: ${call.reason}. ` +
        'Is it running, with this config (metrics.host, metrics.port)? Nothing was changed.\n',
    );
    return EXIT.FAILED;
  }
  const answer = call.body as { status?: unknown; error?: unknown; message?: unknown } | string;
  if (call.httpStatus === 404) {
    io.stderr(
      `ledger-mm ${action}: the daemon at ${call.url} serves no control endpoint (HTTP 404): control.enabled ` +
        'is false there (the container image turns it off until a token is set: LEDGER_MM_CONTROL_TOKEN_FILE ' +
        'and LEDGER_MM_CONTROL_ENABLED=true). Nothing was changed.\n',
    );
    return EXIT.FAILED;
  }
  if (call.httpStatus !== 200 || typeof answer !== 'object' || answer === null) {
    const why =
      typeof answer === 'object' && answer !== null && typeof answer.message === 'string'
        ? `${String(answer.error)}: ${answer.message}`
        : `HTTP ${call.httpStatus} without a control answer (is something else on metrics.port?)`;
    io.stderr(`ledger-mm ${action}: refused by ${call.url} (HTTP ${call.httpStatus}): ${scrubText(why)}\n`);
    return EXIT.FAILED;
  }
  if (values.json) io.stdout(`${JSON.stringify(answer, null, 2)}\n`);
  else io.stdout(describeAnswer(action, answer));
  return EXIT.OK;
}

/** The daemon's answer for a person. */
function describeAnswer(action: Action, a: Record<string, unknown>): string {
  const scopes = (list: unknown): string =>
    Array.isArray(list) && list.length > 0
      ? list.map((e) => String((e as { scope?: unknown }).scope)).join(', ')
      : 'none';
  let out: string;
  if (action === 'pause') {
    const p = a['paused'] as { scope?: unknown; by?: unknown } | undefined;
    out = `paused ${String(p?.scope)} (as ${String(p?.by)}): its quotes are being cancelled; nothing is placed there until \`ledger-mm resume\`.\n`;
  } else {
    out = `resumed: lifted ${scopes(a['lifted'])}.\n`;
    if (Array.isArray(a['stillPaused']) && a['stillPaused'].length > 0)
      out += `!! still paused by ${scopes(a['stillPaused'])}: resume that scope to quote there.\n`;
  }
  out += `\npaused now: ${scopes(a['pauses'])}\n`;
  if (a['killSwitch'] !== undefined) out += `kill switch:\n${renderTree(a['killSwitch'], '  ')}`;
  return out;
}

/** The `pause` subcommand. */
export const pauseCommand: Command = {
  name: 'pause',
  usage: usage('pause'),
  run: (argv, io) => run('pause', argv, io),
};

/** The `resume` subcommand. */
export const resumeCommand: Command = {
  name: 'resume',
  usage: usage('resume'),
  run: (argv, io) => run('resume', argv, io),
};
