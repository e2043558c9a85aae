/**
 * The control endpoint's token and the rule on where the endpoint may listen. The token is read
 * from `control.tokenFile` (trimmed, at least 16 characters) once, when the metrics server
 * starts; `ledger-mm pause` and `resume` read the same file. Without a token the endpoint answers
 * loopback callers only, and a metrics server on a non-loopback address with the endpoint on
 * is refused at startup: anyone who can reach the port could stop the quoting.
 */
import fs from 'node:fs';
import type { ControlConfig } from '../../config/schema.js';
import { tokenId, type ControlCredential } from '../../observability/http/control-auth.js';
import { isLoopbackHost } from '../../venue/url-policy.js';

/** The shortest token accepted. */
export const MIN_TOKEN_LENGTH = 16;

/** The token file cannot be used, or the endpoint would listen unprotected. */
export class ControlTokenError extends Error {
  override readonly name = 'ControlTokenError';
}

/** Reads a token file: the trimmed text. Throws ControlTokenError naming the file and the reason. */
export function readTokenFile(file: string): string {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    throw new ControlTokenError(`control.tokenFile ${file} cannot be read (${code})`);
  }
  const token = text.trim();
  if (token.length < MIN_TOKEN_LENGTH || /\s/.test(token)) {
    throw new ControlTokenError(
      `control.tokenFile ${file} must hold one token of at least ${MIN_TOKEN_LENGTH} characters without spaces (e.g. \`openssl rand -hex 32\`)`,
    );
  }
  return token;
}

/**
 * The endpoint's credential for a daemon listening on `host`: the token of `control.tokenFile`,
 * or null (loopback callers only). Throws ControlTokenError when the file cannot be used, or when
 * `host` is not loopback and there is no token.
 */
export function controlCredential(control: ControlConfig, host: string): ControlCredential | null {
  if (control.tokenFile !== '') {
    const token = readTokenFile(control.tokenFile);
    return { token, id: tokenId(token) };
  }
  if (!isLoopbackHost(host)) {
    throw new ControlTokenError(
      `the control endpoint would listen on ${host} (metrics.host) without a token: set control.tokenFile ` +
        '(LEDGER_MM_CONTROL_TOKEN_FILE) to a file holding one, listen on loopback, or turn the endpoint off ' +
        '(control.enabled false, LEDGER_MM_CONTROL_ENABLED=false)',
    );
  }
  return null;
}
