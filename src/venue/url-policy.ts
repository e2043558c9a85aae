/**
 * Which URLs the venue client will send to. Three rules:
 *
 * 1. Plain `http:` only to loopback hosts (127.0.0.0/8, ::1, localhost); anything else must be
 *    `https:`. Checked for the configured base and submit URLs at construction and for every
 *    `signing.submitUrl` before it is used (`CLIENT_INSECURE_URL`).
 * 2. The base URL ends with the `/v1` version segment (a trailing slash is tolerated); paths are
 *    appended after it.
 * 3. A `signing.submitUrl` is used exactly as the venue gave it, but only when its origin is
 *    the configured submit origin (`CLIENT_SUBMIT_URL_REFUSED`). The client never builds a
 *    submit URL itself.
 */
import { VenueError } from './errors.js';

/** True for `localhost`, any 127.0.0.0/8 address and `::1` (including the IPv4-mapped loopback). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]' || host === '::1') return true;
  // WHATWG URL normalises every IPv4 spelling (127.1, 0x7f.1, ...) to dotted quad.
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  // ::ffff:127.x.y.z, which URL serialises as [::ffff:7fxx:yyyy].
  return /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host);
}

/**
 * Throws `CLIENT_INSECURE_URL` when `url` is plain http to a non-loopback host, and a
 * `TypeError` when the scheme is neither http nor https.
 */
export function assertSecureUrl(url: URL, what: string): void {
  if (url.protocol === 'https:') return;
  if (url.protocol !== 'http:') {
    throw new TypeError(`${what}: unsupported scheme ${url.protocol}`);
  }
  if (!isLoopbackHost(url.hostname)) {
    throw new VenueError({
      code: 'CLIENT_INSECURE_URL',
      message: `${what}: plain http is allowed only for loopback hosts, got ${url.host}`,
    });
  }
}

function parseConfigUrl(raw: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch (cause) {
    throw new TypeError(`${what}: not an absolute URL`, { cause });
  }
  if (url.username !== '' || url.password !== '') {
    throw new TypeError(`${what}: credentials in the URL are not allowed`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new TypeError(`${what}: query strings and fragments are not allowed`);
  }
  assertSecureUrl(url, what);
  return url;
}

/**
 * Validates the configured base URL and returns it normalised without a trailing slash, e.g.
 * `https://api.example/trade/v1`. Throws `CLIENT_INSECURE_URL` for http to a non-loopback host
 * and `TypeError` for anything malformed or not ending in `/v1`.
 */
export function parseBaseUrl(raw: string): string {
  const url = parseConfigUrl(raw, 'baseUrl');
  const path = url.pathname.replace(/\/$/, '');
  if (!path.endsWith('/v1')) {
    throw new TypeError(`baseUrl must end with the /v1 version segment, got path ${url.pathname}`);
  }
  return `${url.origin}${path}`;
}

/**
 * Validates the configured submit URL (only its origin matters) and returns that origin.
 * Throws like {@link parseBaseUrl}.
 */
export function parseSubmitOrigin(raw: string): string {
  return parseConfigUrl(raw, 'submitUrl').origin;
}

/**
 * Checks a `signing.submitUrl` from a prepare response against the configured submit origin and
 * returns it parsed (path and query untouched). Throws a {@link VenueError}:
 * `CLIENT_INSECURE_URL` for http to a non-loopback host, `CLIENT_SUBMIT_URL_REFUSED` for an
 * unparsable URL, embedded credentials, or any other origin. Nothing is sent in either case.
 */
export function checkSubmitUrl(submitUrl: string, allowedOrigin: string): URL {
  let url: URL;
  try {
    url = new URL(submitUrl);
  } catch (cause) {
    throw new VenueError({
      code: 'CLIENT_SUBMIT_URL_REFUSED',
      message: 'submitUrl is not an absolute URL',
      cause,
    });
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') assertSecureUrl(url, 'submitUrl');
  if (url.origin !== allowedOrigin || url.username !== '' || url.password !== '') {
    throw new VenueError({
      code: 'CLIENT_SUBMIT_URL_REFUSED',
      message: `submitUrl origin ${url.origin} is not the configured submit origin ${allowedOrigin}`,
    });
  }
  return url;
}
