/**
 * The value formats of the configuration schema.
 *
 * Every schema leaf names its format: either one of the named formats below or an array of
 * allowed values (an enum). Named formats are registered with convict (so convict's own
 * `validate` and env-string coercion use them) and kept in {@link FORMATS}, where the loader
 * looks them up to produce one structured problem per bad key.
 *
 * Coercion turns an environment string (or a string in a file) into the typed value. A coercer
 * never throws and never guesses: a string it cannot convert exactly is returned unchanged, so
 * validation reports the original text (`"12abc"` is not the integer 12).
 */
import convict from 'convict';

/** See the module doc. */
export interface FormatDef {
  readonly name: string;
  /** Throws an `Error` whose message is the reason the value is refused. */
  readonly validate: (value: unknown) => void;
  /** Converts a string; returns it unchanged when it is not exactly a value of the format. */
  readonly coerce?: (raw: string) => unknown;
}

/** Every named format, by name. */
export const FORMATS = new Map<string, FormatDef>();

function define(def: FormatDef): string {
  FORMATS.set(def.name, def);
  // convict keeps formats in a module-level table; registering the same name again replaces it
  // with an identical definition, so this is idempotent.
  convict.addFormat({ name: def.name, validate: def.validate, coerce: def.coerce });
  return def.name;
}

function fail(reason: string): never {
  throw new Error(reason);
}

function coerceInt(raw: string): unknown {
  const s = raw.trim();
  return /^[+-]?\d+$/.test(s) ? Number(s) : raw;
}

/**
 * An integer within `[min, max]`. `why` is appended to the reason, e.g. the contract rule behind
 * a bound.
 */
export function intFormat(min: number, max: number, opts: { name?: string; why?: string } = {}): string {
  const name = opts.name ?? `mm-int:${min}:${max}`;
  const range = `an integer from ${min} to ${max}`;
  const suffix = opts.why === undefined ? '' : ` (${opts.why})`;
  return define({
    name,
    coerce: coerceInt,
    validate(value) {
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) fail(`must be ${range}${suffix}`);
      if (value < min || value > max) fail(`must be ${range}${suffix}`);
    },
  });
}

/** A TCP port, 0 to 65535. */
export const PORT = intFormat(0, 65_535, { name: 'mm-port', why: 'a TCP port' });

/** A boolean; from the environment `true/false`, `1/0`, `yes/no`, `on/off` (any case). */
export const BOOLEAN = define({
  name: 'mm-boolean',
  coerce(raw) {
    const s = raw.trim().toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(s)) return true;
    if (['false', '0', 'no', 'off'].includes(s)) return false;
    return raw;
  },
  validate(value) {
    if (typeof value !== 'boolean') fail('must be a boolean (true or false)');
  },
});

/**
 * True for `localhost`, 127.0.0.0/8 and `::1` (also IPv4-mapped): the hosts plain `http:` is
 * allowed to, the same rule as the venue client's URL policy.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]') return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  // ::ffff:127.x.y.z, which URL serialises as [::ffff:7fxx:yyyy].
  return /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host);
}

function parseHttpUrl(value: unknown): URL {
  if (typeof value !== 'string' || value === '') fail('must be an absolute http(s) URL');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail('must be an absolute http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') fail('must be an absolute http(s) URL');
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    fail('plain http is allowed only to a loopback host; use https');
  }
  if (url.username !== '' || url.password !== '') {
    fail('must not carry credentials; the API key comes from LEDGER_MM_API_KEY or venue.apiKeyFile');
  }
  if (url.search !== '' || url.hash !== '') fail('must not have a query or a fragment');
  return url;
}

/** An absolute http(s) URL without credentials, query or fragment; http only to loopback. */
export const HTTP_URL = define({
  name: 'mm-http-url',
  validate(value) {
    parseHttpUrl(value);
  },
});

/**
 * An http(s) URL a probe reads, e.g. the daemon's `/healthz` from a watchdog on another host:
 * plain http to any host is allowed (it carries no secret and no order), credentials are not.
 */
export const PROBE_URL = define({
  name: 'mm-probe-url',
  validate(value) {
    checkProbeUrl(value);
  },
});

/** A {@link PROBE_URL}, or `''` for "not configured". */
export const OPTIONAL_PROBE_URL = define({
  name: 'mm-optional-probe-url',
  validate(value) {
    if (value !== '') checkProbeUrl(value);
  },
});

function checkProbeUrl(value: unknown): void {
  if (typeof value !== 'string' || value === '') fail('must be an absolute http(s) URL');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail('must be an absolute http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') fail('must be an absolute http(s) URL');
  if (url.username !== '' || url.password !== '') fail('must not carry credentials');
}

/** The trade API base: an {@link HTTP_URL} whose path ends with the `/v1` version segment. */
export const BASE_URL = define({
  name: 'mm-base-url',
  validate(value) {
    const url = parseHttpUrl(value);
    if (!/\/v1\/?$/.test(url.pathname))
      fail('must end with the /v1 version segment, e.g. https://host/api/v1');
  },
});

function assertPathString(value: unknown): asserts value is string {
  if (typeof value !== 'string') fail('must be a file path (a string)');
  if (value.includes('\0')) fail('must not contain a NUL character');
}

/** A file path; relative paths are resolved against the working directory. Must not be empty. */
export const PATH = define({
  name: 'mm-path',
  validate(value) {
    assertPathString(value);
    if (value.trim() === '') fail('must not be empty');
  },
});

/** A file path, or `''` for "not configured". */
export const OPTIONAL_PATH = define({
  name: 'mm-optional-path',
  validate(value) {
    assertPathString(value);
  },
});

/** Any string; used for secrets, whose shape is checked where they are resolved. */
export const SECRET_STRING = define({
  name: 'mm-secret-string',
  validate(value) {
    if (typeof value !== 'string') fail('must be a string');
  },
});

/** A line of free text of 1 to 200 characters (a cancel reason). */
export const SHORT_TEXT = define({
  name: 'mm-short-text',
  validate(value) {
    if (typeof value !== 'string' || value.trim() === '' || value.length > 200 || /[\r\n]/.test(value)) {
      fail('must be one line of 1 to 200 characters');
    }
  },
});

/** A host name or IP address to listen on. */
export const HOST = define({
  name: 'mm-host',
  validate(value) {
    if (typeof value !== 'string' || !/^[A-Za-z0-9.:[\]-]+$/.test(value)) {
      fail('must be a host name or an IP address');
    }
  },
});

/** A URL query parameter name. */
export const PARAM_NAME = define({
  name: 'mm-param-name',
  validate(value) {
    if (typeof value !== 'string' || !/^[A-Za-z][A-Za-z0-9_]*$/.test(value)) {
      fail('must be a query parameter name (a letter, then letters, digits or _)');
    }
  },
});

/** The form of a pair name: `<base>/<quote>`. */
export const PAIR_NAME = /^[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+$/;

/** A list of pair names; from the environment a comma-separated list (`BTC/USDC,ETH/USDC`). */
export const PAIRS = define({
  name: 'mm-pairs',
  coerce(raw) {
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  },
  validate(value) {
    if (!Array.isArray(value)) fail('must be a list of pair names like "BTC/USDC"');
    const seen = new Set<string>();
    for (const item of value as unknown[]) {
      if (typeof item !== 'string' || !PAIR_NAME.test(item)) {
        fail(`must be a list of pair names like "BTC/USDC"; ${JSON.stringify(item)} is not one`);
      }
      if (seen.has(item)) fail(`lists ${JSON.stringify(item)} twice`);
      seen.add(item);
    }
  },
});

/** A Daml name or label path: non-empty, no whitespace (`Venue.Order:Order`, `price`, `terms.price`). */
export const DAML_NAME = define({
  name: 'mm-daml-name',
  validate(value) {
    if (typeof value !== 'string' || !/^[^\s]+$/.test(value)) fail('must be a non-empty name without spaces');
  },
});

/** Dotted JSON field paths (`prepared.preparedTransaction`); from the environment comma-separated. */
export const FIELD_PATHS = define({
  name: 'mm-field-paths',
  coerce(raw) {
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  },
  validate(value) {
    if (!Array.isArray(value) || value.length === 0) fail('must be a non-empty list of dotted field paths');
    for (const item of value as unknown[]) {
      if (typeof item !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(item)) {
        fail(`must be a list of dotted field paths; ${JSON.stringify(item)} is not one`);
      }
    }
  },
});

/** Validates `value` against a leaf's format (a named format or an enum). Throws with the reason. */
export function checkFormat(format: string | readonly unknown[], value: unknown): void {
  if (typeof format === 'string') {
    const def = FORMATS.get(format);
    if (def === undefined) throw new Error(`unknown format ${format}`);
    def.validate(value);
    return;
  }
  if (!format.includes(value)) {
    fail(`must be one of ${format.map((v) => JSON.stringify(v)).join(', ')}`);
  }
}

/**
 * A value checked by a zod schema (lists of objects, such as `firm.parties`): the first issues,
 * with their paths, are the reason.
 */
export function zodFormat(name: string, schema: { safeParse(v: unknown): ZodSafeParse }): string {
  return define({
    name,
    validate(value) {
      const r = schema.safeParse(value);
      if (r.success) return;
      const issues = r.error.issues.slice(0, 3).map((i) => {
        const at = i.path.length === 0 ? '' : `[${i.path.map(String).join('.')}] `;
        return `${at}${i.message}`;
      });
      fail(issues.join('; '));
    },
  });
}

/** What {@link zodFormat} reads of a zod parse. */
type ZodSafeParse =
  | { readonly success: true }
  | {
      readonly success: false;
      readonly error: {
        readonly issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[];
      };
    };
