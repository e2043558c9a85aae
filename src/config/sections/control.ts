/**
 * The `control` section: the daemon's control endpoint (`POST /control/pause`, `/control/resume`
 * and `GET /control` on the metrics server), which `ledger-mm pause` and `ledger-mm resume` call.
 * Without a token it answers loopback callers only, and a daemon whose metrics server listens on
 * a non-loopback address refuses to start with the endpoint on and no token.
 */
import type { SchemaOf } from '../define.js';
import { BOOLEAN, OPTIONAL_PATH } from '../formats.js';

/** See the module doc. */
export interface ControlConfig {
  readonly enabled: boolean;
  /** Absolute after loading, or `''`. */
  readonly tokenFile: string;
}

/** The convict section. */
export const controlSchema: SchemaOf<ControlConfig> = {
  enabled: {
    doc: 'Serve the control endpoint (pause and resume) on the metrics server. With it on and no tokenFile, the metrics server must listen on loopback: the daemon refuses to start otherwise.',
    format: BOOLEAN,
    default: true,
    env: 'LEDGER_MM_CONTROL_ENABLED',
  },
  tokenFile: {
    doc: 'A file holding the bearer token the control endpoint requires (trimmed; at least 16 characters). "" (default): no token, loopback callers only. ledger-mm pause and resume read the same file.',
    format: OPTIONAL_PATH,
    default: '',
    env: 'LEDGER_MM_CONTROL_TOKEN_FILE',
  },
};
