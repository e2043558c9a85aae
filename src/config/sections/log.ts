/**
 * The `log` config section: the minimum level and pretty (terminal) or JSON lines. A convict
 * section in the `SchemaOf` form; `daemon/run-daemon.ts` builds the pino logger from it.
 */
import { LOG_LEVELS, type LogLevel } from '../../logging/levels.js';
import type { SchemaOf } from '../define.js';
import { BOOLEAN } from '../formats.js';

export interface LogConfig {
  readonly level: LogLevel;
  readonly pretty: boolean;
}

export const logSchema: SchemaOf<LogConfig> = {
  level: {
    doc: 'Minimum log level: fatal, error, warn, info, debug, trace, or silent.',
    format: LOG_LEVELS,
    default: 'info',
    env: 'LEDGER_MM_LOG_LEVEL',
  },
  pretty: {
    doc: 'Human-readable log lines instead of JSON lines (for a terminal, not for collection).',
    format: BOOLEAN,
    default: false,
    env: 'LEDGER_MM_LOG_PRETTY',
  },
};
