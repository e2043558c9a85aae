/**
 * The hedge venue's API key and secret: from the environment (`LEDGER_MM_HEDGE_API_KEY`,
 * `LEDGER_MM_HEDGE_API_SECRET`, which the config loader puts in `hedge.apiKey` and
 * `hedge.apiSecret`) or else from files (`hedge.apiKeyFile`, `hedge.apiSecretFile`), never from a
 * config file's values (the loader refuses them there). A file must not be readable by group or
 * others.
 */
import fs from 'node:fs';

/** A key pair for the hedge venue. */
export interface HedgeCredentials {
  readonly apiKey: string;
  readonly secret: string;
}

/** Where to look: the `hedge` config section's four keys. */
export interface HedgeCredentialSources {
  /** From the environment only; "" when unset. */
  readonly apiKey: string;
  readonly apiSecret: string;
  /** "" or a path. */
  readonly apiKeyFile: string;
  readonly apiSecretFile: string;
}

function fromFile(path: string, what: string): string {
  const st = fs.statSync(path);
  if ((st.mode & 0o077) !== 0) {
    throw new Error(`${what} file ${path} is readable by group or others (chmod 600 it)`);
  }
  const v = fs.readFileSync(path, 'utf8').trim();
  if (v === '') throw new Error(`${what} file ${path} is empty`);
  return v;
}

/**
 * The credentials, the environment's first, then the files.
 *
 * @throws Error naming what is missing (never the value).
 */
export function loadHedgeCredentials(src: HedgeCredentialSources): HedgeCredentials {
  const apiKey =
    src.apiKey !== '' ? src.apiKey : src.apiKeyFile !== '' ? fromFile(src.apiKeyFile, 'hedge API key') : '';
  const secret =
    src.apiSecret !== ''
      ? src.apiSecret
      : src.apiSecretFile !== ''
        ? fromFile(src.apiSecretFile, 'hedge API secret')
        : '';
  if (apiKey === '') throw new Error('no hedge API key: set hedge.apiKeyFile or LEDGER_MM_HEDGE_API_KEY');
  if (secret === '')
    throw new Error('no hedge API secret: set hedge.apiSecretFile or LEDGER_MM_HEDGE_API_SECRET');
  return { apiKey, secret };
}

/** A ccxt exchange with trading credentials (ccxt loaded on first use). `urls` overrides endpoints (tests). */
export async function ccxtTradingExchange(
  id: string,
  creds: HedgeCredentials,
  opts: {
    readonly timeoutMs: number;
    readonly urls?: Readonly<Record<string, unknown>>;
    readonly options?: Readonly<Record<string, unknown>>;
  },
): Promise<unknown> {
  const mod = (await import('ccxt')) as unknown as { default?: Record<string, unknown> } & Record<
    string,
    unknown
  >;
  const ccxt = mod.default ?? mod;
  const cls = ccxt[id] as (new (c: Record<string, unknown>) => { urls: Record<string, unknown> }) | undefined;
  if (typeof cls !== 'function') throw new Error(`ccxt has no exchange "${id}"`);
  const ex = new cls({
    apiKey: creds.apiKey,
    secret: creds.secret,
    enableRateLimit: true,
    timeout: opts.timeoutMs,
    options: opts.options ?? {},
  });
  if (opts.urls !== undefined) mergeInto(ex.urls, opts.urls);
  return ex;
}

function mergeInto(base: Record<string, unknown>, over: Readonly<Record<string, unknown>>): void {
  for (const [k, v] of Object.entries(over)) {
    const b = base[k];
    if (typeof v === 'object' && v !== null && typeof b === 'object' && b !== null) {
      mergeInto(b as Record<string, unknown>, v as Record<string, unknown>);
    } else base[k] = v;
  }
}
