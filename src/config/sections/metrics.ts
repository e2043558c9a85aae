/**
 * The `metrics` config section: the address of the daemon's metrics and health HTTP server
 * (`/metrics`, `/healthz`, `/readyz`, `/status`), loopback by default. Read by
 * `daemon/reporting/observability-wiring.ts`; metrics observe and never decide.
 */
import type { SchemaOf } from '../define.js';
import { HOST, PORT } from '../formats.js';

export interface MetricsConfig {
  readonly port: number;
  readonly host: string;
}

export const metricsSchema: SchemaOf<MetricsConfig> = {
  port: {
    doc: 'TCP port of the metrics and health HTTP server (0: any free port).',
    format: PORT,
    default: 9464,
    env: 'LEDGER_MM_METRICS_PORT',
  },
  host: {
    doc: 'Address the metrics and health server listens on. Loopback by default; 0.0.0.0 in a container.',
    format: HOST,
    default: '127.0.0.1',
    env: 'LEDGER_MM_METRICS_HOST',
  },
};
