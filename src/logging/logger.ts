/**
 * The daemon's logger: {@link createLogger} builds pino (JSON lines on stdout, or pretty lines
 * for a terminal) with the redaction of `redact.ts` applied to every call, every child binding
 * and every finished line, so no API key or secret reaches a log. Built once by the daemon's
 * entry (and by the watchdog and the lab's runs) and handed down; the pure strategy, reconciler
 * and risk gate take no logger.
 */
import pino, {
  type Bindings,
  type ChildLoggerOptions,
  type DestinationStream,
  type LogFn,
  type Logger,
} from 'pino';
import pinoPretty from 'pino-pretty';

import type { LogLevel } from './levels.js';
import { REDACTED, REDACT_PATHS, expandSecrets, sanitize, scrubText } from './redact.js';

export type { Logger } from 'pino';
export { LOG_LEVELS, type LogLevel } from './levels.js';
export { REDACTED, REDACT_PATHS, SENSITIVE_NAMES, apiKeyHandle, isApiKey } from './redact.js';

/** Where log lines go: anything with a synchronous `write` of one line (newline included). */
export interface LogDestination {
  write(line: string): unknown;
}

export interface CreateLoggerOptions {
  readonly level: LogLevel;
  /** Human-readable lines (pino-pretty, formatted in-line, synchronously). Default JSON lines. */
  readonly pretty?: boolean;
  /** Default: stdout, synchronous. */
  readonly destination?: LogDestination;
  /**
   * Known secret strings to replace wherever they occur, e.g. the resolved API key (its secret
   * part is then also replaced on its own). Strings shorter than 8 characters are ignored.
   */
  readonly secrets?: readonly string[];
  /** The logger's `name` field. */
  readonly name?: string;
  /** Colour in pretty mode. Default: only when writing to a terminal on stdout. */
  readonly colorize?: boolean;
}

/**
 * The daemon's logger: pino, JSON lines on stdout by default, with the redaction rules of
 * `redact.ts` applied to every call, every child binding and every finished line.
 */
export function createLogger(opts: CreateLoggerOptions): Logger {
  const secrets = expandSecrets(opts.secrets ?? []);
  const target: DestinationStream = opts.destination ?? pino.destination({ dest: 1, sync: true });
  const stream =
    opts.pretty === true
      ? prettyStream(
          target,
          opts.colorize ?? (opts.destination === undefined && process.stdout.isTTY === true),
        )
      : target;
  const logger = pino(
    {
      level: opts.level,
      ...(opts.name === undefined ? {} : { name: opts.name }),
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: [...REDACT_PATHS], censor: REDACTED },
      formatters: {
        bindings: (bindings) => sanitize(bindings, secrets) as Record<string, unknown>,
      },
      hooks: {
        logMethod(args, method) {
          const clean = args.map((a) => sanitize(a, secrets)) as Parameters<LogFn>;
          method.apply(this, clean);
        },
        streamWrite: (line) => scrubText(line, secrets),
      },
    },
    stream,
  );
  guardChildren(logger, secrets);
  return logger;
}

/**
 * pino applies `formatters.bindings` to the root's bindings only, so child bindings are
 * sanitised here. Children inherit this `child` from the root, so grandchildren are covered.
 */
function guardChildren(root: Logger, secrets: readonly string[]): void {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the right `this`
  const original = root.child;
  root.child = function guardedChild(this: Logger, bindings: Bindings, options?: ChildLoggerOptions) {
    return Reflect.apply(original, this, [sanitize(bindings, secrets), options]) as Logger;
  } as unknown as Logger['child'];
}

/** A destination that formats each JSON line with pino-pretty before writing it. */
function prettyStream(target: LogDestination, colorize: boolean): DestinationStream {
  const prettify = pinoPretty.prettyFactory({
    colorize,
    ignore: 'pid,hostname',
    translateTime: 'SYS:standard',
  });
  return {
    write(line: string): void {
      target.write(prettify(line));
    },
  };
}
