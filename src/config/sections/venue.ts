/**
 * The `venue` config section: the trade API and submission host URLs, the API key (from the
 * environment or a key file, never from a config file) and how it is sent, per-call timeouts
 * (with the contract's floor on a submission), the retry of idempotent calls, the cursor
 * parameter and the connections per host. `daemon/startup/venue-client.ts` builds the venue
 * client, the end of the data flow, from it.
 */
import type { SchemaOf } from '../define.js';
import { BASE_URL, HTTP_URL, OPTIONAL_PATH, PARAM_NAME, SECRET_STRING, intFormat } from '../formats.js';
import { MIN_SUBMIT_TIMEOUT_MS } from '../../venue/client-options.js';

/** The contract's floor on the submission timeout, defined once by the venue client. */
export { MIN_SUBMIT_TIMEOUT_MS };

/** How the API key is sent; the venue treats both as equivalent. */
export const AUTH_HEADERS = ['bearer', 'x-api-key'] as const;
export type AuthHeaderMode = (typeof AUTH_HEADERS)[number];

/** Per-call client timeouts, in milliseconds, per attempt. */
export interface VenueTimeoutsConfig {
  readonly prepareMs: number;
  readonly cancelPrepareMs: number;
  readonly submitMs: number;
  readonly balancesMs: number;
  readonly defaultMs: number;
}

/** Retries of idempotent calls (reads, prepares); a submission is never retried blindly. */
export interface VenueRetryConfig {
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export interface VenueConfig {
  readonly baseUrl: string;
  readonly submitUrl: string;
  /**
   * The API key `mm_ak_<prefix>.<secret>`, or `''` when none is configured. After loading, this
   * is the resolved key: LEDGER_MM_API_KEY, else the trimmed contents of `apiKeyFile`.
   */
  readonly apiKey: string;
  /** Absolute after loading, or `''`. */
  readonly apiKeyFile: string;
  readonly authHeader: AuthHeaderMode;
  readonly timeouts: VenueTimeoutsConfig;
  readonly retry: VenueRetryConfig;
  readonly cursorParam: string;
  readonly connections: number;
}

const MS = intFormat(1, 3_600_000);
const DELAY_MS = intFormat(0, 3_600_000);

export const venueSchema: SchemaOf<VenueConfig> = {
  baseUrl: {
    doc: 'The trade API base URL, ending with the /v1 version segment. https, or http to a loopback host. The default is the embedded simulator.',
    format: BASE_URL,
    default: 'http://127.0.0.1:8710/v1',
    env: 'LEDGER_MM_BASE_URL',
  },
  submitUrl: {
    doc: 'The submission host. Each prepare response gives the exact submitUrl to use; it is used only when its origin is the origin of this URL.',
    format: HTTP_URL,
    default: 'http://127.0.0.1:8711/submit',
    env: 'LEDGER_MM_SUBMIT_URL',
  },
  apiKey: {
    doc: 'The API key mm_ak_<prefix>.<secret>. Secret: only from the environment, never from a config file. Takes precedence over venue.apiKeyFile.',
    format: SECRET_STRING,
    default: '',
    env: 'LEDGER_MM_API_KEY',
    sensitive: true,
  },
  apiKeyFile: {
    doc: 'A file holding the API key (surrounding whitespace is trimmed); used when LEDGER_MM_API_KEY is not set. Relative to the working directory. Empty: none.',
    format: OPTIONAL_PATH,
    default: '',
    env: 'LEDGER_MM_API_KEY_FILE',
  },
  authHeader: {
    doc: 'How the API key is sent: "bearer" (Authorization: Bearer <key>) or "x-api-key" (X-API-Key: <key>).',
    format: AUTH_HEADERS,
    default: 'bearer',
  },
  timeouts: {
    prepareMs: {
      doc: 'Client timeout of POST /orders, in ms. The server ceiling for a prepare is 30 s.',
      format: MS,
      default: 35_000,
    },
    cancelPrepareMs: {
      doc: 'Client timeout of POST /orders/{contractId}/cancel, in ms (typically 11 to 23 s).',
      format: MS,
      default: 35_000,
    },
    submitMs: {
      doc: 'Client timeout of a submission, in ms. The venue requires at least 120000: a shorter timeout abandons transactions that may still commit.',
      format: intFormat(MIN_SUBMIT_TIMEOUT_MS, 3_600_000, {
        why: 'the venue requires a submission timeout of at least 120 s',
      }),
      default: 130_000,
    },
    balancesMs: {
      doc: 'Client timeout of GET /balances, in ms; a cold cache can exceed 10 s.',
      format: MS,
      default: 30_000,
    },
    defaultMs: {
      doc: 'Client timeout of every other call, in ms.',
      format: MS,
      default: 10_000,
    },
  },
  retry: {
    maxAttempts: {
      doc: 'Total attempts (first try included) of a read or a prepare on a retryable failure. Submissions are never retried without reading the order first.',
      format: intFormat(1, 10),
      default: 3,
    },
    baseDelayMs: {
      doc: 'Backoff before the first retry, in ms, before jitter; doubles per retry.',
      format: DELAY_MS,
      default: 500,
    },
    maxDelayMs: {
      doc: 'Cap on a single backoff, in ms; at least venue.retry.baseDelayMs.',
      format: DELAY_MS,
      default: 10_000,
    },
  },
  cursorParam: {
    doc: 'The query parameter that carries a pagination cursor (the contract does not name it).',
    format: PARAM_NAME,
    default: 'cursor',
  },
  connections: {
    doc: 'Keep-alive connections per host (base API host and submission host each).',
    format: intFormat(1, 256),
    default: 8,
  },
};
