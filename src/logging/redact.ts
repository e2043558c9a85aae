/**
 * What never reaches a log line, and how that is enforced.
 *
 * The rules, applied to every log call (merging object, message, format arguments, child
 * bindings) before pino serialises it, and again to the finished line:
 *
 * 1. API keys. Any string anywhere containing `mm_ak_<prefix>.<secret>` is cut down to the
 *    public handle `mm_ak_<prefix>`. This also runs over the final JSON line, so it covers
 *    messages, error messages and stacks, and anything a serialiser produced.
 * 2. Sensitive names. A property whose name is one of {@link SENSITIVE_NAMES} (compared
 *    case-insensitively, ignoring `-` and `_`: `apiKey`, `x-api-key`, `authorization`,
 *    `signature`, `submitToken`, `privateKey`, `secretKey`, `secret`, `seed`, `password`, ...)
 *    is replaced by `[Redacted]` at any depth, whatever its type. pino's own `redact` paths
 *    ({@link REDACT_PATHS}) name the same fields at known places.
 * 3. Bytes. Every `Buffer`, typed array, `DataView` and `ArrayBuffer` is replaced by `[Redacted]`,
 *    under any name (`key`, `secret`, `seed`, or anything else): key material travels as bytes,
 *    and nothing the daemon logs on purpose is binary. Public keys and hashes are logged as
 *    base64 or hex strings.
 * 4. Known secrets. Strings given to the logger as `secrets` (the API key, for example) are
 *    replaced wherever they occur, as are the secret parts of API keys among them.
 *
 * Not covered: a private key written out as a base64 or hex string under a non-sensitive name.
 * Key material is kept as bytes (rule 3) and never converted to text.
 */

/** The placeholder for anything redacted. */
export const REDACTED = '[Redacted]';

/** Characters of a key's prefix: the public handle is `mm_ak_` plus these. */
const PREFIX_CHARS = '[A-Za-z0-9_-]';
/**
 * Characters of a key's secret part: printable ASCII except quotes, brackets, `,`, `;`, `\` and
 * backquote, so a key embedded in JSON, a header or a sentence ends where the key ends.
 */
const SECRET_CHARS = '[!#$%&*+\\-./0-9:=?@A-Z^_a-z|~]';

/** A whole API key `mm_ak_<prefix>.<secret>`; group 1 is the public handle. */
export const API_KEY_PATTERN = new RegExp(`^(mm_ak_${PREFIX_CHARS}+)\\.${SECRET_CHARS}+$`);
const API_KEY_IN_TEXT = new RegExp(`(mm_ak_${PREFIX_CHARS}+)\\.${SECRET_CHARS}+`, 'gi');

/** True when `key` has the form `mm_ak_<prefix>.<secret>`. */
export function isApiKey(key: string): boolean {
  return API_KEY_PATTERN.test(key);
}

/**
 * The public handle `mm_ak_<prefix>` of an API key: the part before the dot, safe to log.
 * Anything that is not a well-formed key gives `[Redacted]` (its text is never echoed).
 */
export function apiKeyHandle(key: string): string {
  const m = API_KEY_PATTERN.exec(key);
  return m?.[1] ?? REDACTED;
}

/** Property names whose values are always redacted (lower case, without `-` and `_`). */
export const SENSITIVE_NAMES: ReadonlySet<string> = new Set([
  'apikey',
  'xapikey',
  'authorization',
  'proxyauthorization',
  'cookie',
  'setcookie',
  'signature',
  'submittoken',
  'token',
  'accesstoken',
  'refreshtoken',
  'privatekey',
  'secretkey',
  'signingkey',
  'secret',
  'seed',
  'mnemonic',
  'password',
  'passphrase',
]);

/** True when a property of this name is always redacted. */
export function isSensitiveName(name: string): boolean {
  return SENSITIVE_NAMES.has(name.toLowerCase().replace(/[-_]/g, ''));
}

/** pino `redact` paths for the sensitive fields at the places they are known to appear. */
export const REDACT_PATHS: readonly string[] = [
  'apiKey',
  '*.apiKey',
  'venue.apiKey',
  'config.venue.apiKey',
  'headers.authorization',
  'headers.Authorization',
  'headers["x-api-key"]',
  'headers["X-API-Key"]',
  '*.headers.authorization',
  '*.headers.Authorization',
  '*.headers["x-api-key"]',
  '*.headers["X-API-Key"]',
  'signature',
  '*.signature',
  'body.signature',
  'req.body.signature',
  'submitToken',
  '*.submitToken',
  'signing.submitToken',
  'body.submitToken',
  'privateKey',
  '*.privateKey',
  'secretKey',
  '*.secretKey',
  'seed',
  '*.seed',
  'secret',
  '*.secret',
];

/** The strings to scrub for a list of known secrets: each, its JSON-escaped form, and key secret parts. */
export function expandSecrets(secrets: readonly string[]): string[] {
  const out = new Set<string>();
  for (const s of secrets) {
    if (s.length < 8) continue; // too short to replace without mangling ordinary text
    out.add(s);
    out.add(JSON.stringify(s).slice(1, -1));
    const dot = s.indexOf('.');
    if (isApiKey(s) && s.length - dot - 1 >= 8) out.add(s.slice(dot + 1));
  }
  // Longest first, so a key is replaced whole before its secret part is looked for.
  return [...out].sort((a, b) => b.length - a.length);
}

/** Cuts every API key in `text` down to its handle and replaces every known secret. */
export function scrubText(text: string, secrets: readonly string[] = []): string {
  let out = text.includes('_') ? text.replace(API_KEY_IN_TEXT, '$1') : text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
  return out;
}

function isBinary(value: object): boolean {
  return (
    ArrayBuffer.isView(value) ||
    value instanceof ArrayBuffer ||
    (typeof SharedArrayBuffer !== 'undefined' && value instanceof SharedArrayBuffer)
  );
}

const MAX_DEPTH = 12;

/**
 * A copy of `value` with the rules above applied. Errors stay errors (a clone with the same
 * prototype, so pino's error serialiser still reports their type, message, stack and causes),
 * values with `toJSON` (dates, decimals) are replaced by its result, and cycles become
 * `[Circular]`. Never mutates its input.
 */
export function sanitize(value: unknown, secrets: readonly string[] = []): unknown {
  return clean(value, secrets, new Set(), 0);
}

function clean(value: unknown, secrets: readonly string[], ancestors: Set<object>, depth: number): unknown {
  if (typeof value === 'string') return scrubText(value, secrets);
  if (typeof value !== 'object' || value === null) return value;
  if (isBinary(value)) return REDACTED;
  if (ancestors.has(value)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[Truncated]';
  ancestors.add(value);
  try {
    return cleanObject(value, secrets, ancestors, depth + 1);
  } catch {
    return '[Unserializable]';
  } finally {
    ancestors.delete(value);
  }
}

function cleanObject(
  value: object,
  secrets: readonly string[],
  ancestors: Set<object>,
  depth: number,
): unknown {
  const recur = (v: unknown): unknown => clean(v, secrets, ancestors, depth);
  if (value instanceof Error) return cleanError(value, recur, secrets);
  if (Array.isArray(value)) return value.map(recur);
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) {
      const name = scrubText(String(k), secrets);
      out[name] = isSensitiveName(name) && v != null ? REDACTED : recur(v);
    }
    return out;
  }
  if (value instanceof Set) return [...value].map(recur);
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return recur(toJSON.call(value));
  return cleanRecord(value as Record<string, unknown>, recur, secrets);
}

function cleanRecord(
  value: Record<string, unknown>,
  recur: (v: unknown) => unknown,
  secrets: readonly string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) {
    const v = value[k];
    out[scrubText(k, secrets)] = isSensitiveName(k) && v != null ? REDACTED : recur(v);
  }
  return out;
}

function cleanError(err: Error, recur: (v: unknown) => unknown, secrets: readonly string[]): Error {
  const copy = Object.create(Object.getPrototypeOf(err) as object | null) as Error;
  const define = (name: string, v: unknown): void => {
    Object.defineProperty(copy, name, { value: v, writable: true, configurable: true, enumerable: false });
  };
  define('message', scrubText(String(err.message), secrets));
  if (typeof err.stack === 'string') define('stack', scrubText(err.stack, secrets));
  if (Object.hasOwn(err, 'name')) define('name', recur(err.name));
  if (Object.hasOwn(err, 'cause')) define('cause', recur(err.cause));
  if (Object.hasOwn(err, 'errors')) define('errors', recur((err as { errors?: unknown }).errors));
  Object.assign(copy, cleanRecord(err as unknown as Record<string, unknown>, recur, secrets));
  return copy;
}
