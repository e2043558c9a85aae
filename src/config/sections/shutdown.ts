import type { SchemaOf } from '../define.js';
import { BOOLEAN, intFormat } from '../formats.js';

export interface ShutdownConfig {
  readonly cancelOrders: boolean;
  readonly graceMs: number;
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
};
