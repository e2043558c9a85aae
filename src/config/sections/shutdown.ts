/**
 * The `shutdown` config section: whether SIGTERM/SIGINT cancels every order the daemon holds,
 * the bound on the whole stop, and how long to wait for orders of unknown outcome. The daemon
 * passes these to its graceful stop (`daemon/lifecycle.ts`) unless its options override them.
 */
import type { SchemaOf } from '../define.js';
import { BOOLEAN, intFormat } from '../formats.js';

export interface ShutdownConfig {
  readonly cancelOrders: boolean;
  readonly graceMs: number;
  readonly unknownWaitMs: number;
}

export const shutdownSchema: SchemaOf<ShutdownConfig> = {
  cancelOrders: {
    doc: 'On SIGTERM or SIGINT, cancel every order the daemon holds before exiting. False leaves them resting (exposure stays).',
    format: BOOLEAN,
    default: true,
  },
  graceMs: {
    doc: 'How long shutdown may take, in ms, before the daemon exits anyway; long enough for cancels and an in-flight submission.',
    format: intFormat(0, 3_600_000),
    default: 150_000,
  },
  unknownWaitMs: {
    doc: 'On SIGTERM or SIGINT, how long to wait, in ms, for orders whose placement outcome is unknown to resolve. Past it the daemon exits 0 naming them: they are in the journal and the next start resolves them.',
    format: intFormat(0, 3_600_000),
    default: 30_000,
  },
};
