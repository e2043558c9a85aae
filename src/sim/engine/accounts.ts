/**
 * The simulated venue's accounts: {@link AccountRegistry} registers market-maker accounts with
 * their party and Ed25519 key (as the operator's onboarding would), issues and checks API keys
 * (only a hash of each secret is kept; revoked and expired keys answer their 401 codes), and
 * holds each account's status, limits, preapprovals and per-minute prepare window. Every
 * authenticated route of the simulator resolves its caller here.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IdSource } from './ids.js';
import { ledgerFingerprint } from '../../signing/fingerprint.js';
import { publicKeyToRaw } from './signatures.js';
import { SimError } from './sim-error.js';

/** Account statuses (section 2). */
export type AccountStatus = 'ACTIVE' | 'SUSPENDED' | 'DISABLED';

/** What registering an account takes (the operator's onboarding, outside the API). */
export interface AccountInit {
  name: string;
  /** Lowercase; the clientOrderId prefix is `<slug>-`. */
  slug: string;
  partyId?: string;
  /** A fixed API key `mm_ak_<prefix>.<secret>`; one is generated when absent. */
  apiKey?: string;
  /** The party's Ed25519 key, base64 raw or SPKI. Submissions are refused until one is registered. */
  publicKey?: string;
  status?: AccountStatus;
  feeExempt?: boolean;
  allowedPairs?: string[] | 'all';
  /** Null: uncapped. */
  maxOpenOrders?: number | null;
  /** Null: uncapped. */
  ordersPerMinute?: number | null;
}

/** A registered account and its party. */
export interface Account {
  name: string;
  slug: string;
  partyId: string;
  status: AccountStatus;
  feeExempt: boolean;
  allowedPairs: string[] | 'all';
  maxOpenOrders: number | null;
  ordersPerMinute: number | null;
  publicKeyRaw: Uint8Array | null;
  /** Tokens this party has a transfer preapproval for. */
  preapprovals: Set<string>;
  /** Arrival times of order prepares in the current 60 s window. */
  prepareTimes: number[];
  /** When GET /balances last warmed the wallet cache; null = cold. */
  balancesWarmAt: number | null;
}

/** What is kept of an API key: a public prefix and a hash of the secret, never the key. */
export interface ApiKeyRecord {
  prefix: string;
  secretHash: Buffer;
  slug: string;
  revoked: boolean;
  /** Clock ms after which the key answers API_KEY_EXPIRED; null = never. */
  expiresAt: number | null;
}

const API_KEY = /^mm_ak_([A-Za-z0-9]+)\.([A-Za-z0-9_-]+)$/;
const SLUG = /^[a-z0-9][a-z0-9-]*$/;

/** The sliding window of the per-minute order rate. */
export const RATE_WINDOW_MS = 60_000;

/** Accounts, their API keys and their registered signing keys. */
export class AccountRegistry {
  private readonly bySlug = new Map<string, Account>();
  private readonly byParty = new Map<string, Account>();
  private readonly keys = new Map<string, ApiKeyRecord>();
  /**
   * False models a venue whose key authentication is not set up. The contract lists
   * AUTH_NOT_CONFIGURED without an HTTP status ("not shown"); the simulator answers 503.
   */
  authConfigured = true;

  constructor(private readonly ids: IdSource) {}

  /** Registers an account; returns it and its API key (the only time the key is shown). */
  register(init: AccountInit): { account: Account; apiKey: string } {
    if (!SLUG.test(init.slug))
      throw new SimError(400, 'VALIDATION_ERROR', `slug must be lowercase: ${init.slug}`);
    if (this.bySlug.has(init.slug)) throw new SimError(400, 'VALIDATION_ERROR', `slug taken: ${init.slug}`);
    let publicKeyRaw: Uint8Array | null = null;
    if (init.publicKey !== undefined) {
      publicKeyRaw = publicKeyToRaw(init.publicKey);
      if (!publicKeyRaw) throw new SimError(400, 'VALIDATION_ERROR', 'publicKey is not an Ed25519 key');
    }
    // A party created from a signing key is `<hint>::<fingerprint of that key>` on the ledger.
    const partyId =
      init.partyId ??
      (publicKeyRaw
        ? `${init.slug}-mm::${ledgerFingerprint(publicKeyRaw)}`
        : this.ids.partyId(`${init.slug}-mm`));
    if (this.byParty.has(partyId)) throw new SimError(400, 'VALIDATION_ERROR', `party taken: ${partyId}`);
    const account: Account = {
      name: init.name,
      slug: init.slug,
      partyId,
      status: init.status ?? 'ACTIVE',
      feeExempt: init.feeExempt ?? true,
      allowedPairs: init.allowedPairs ?? 'all',
      maxOpenOrders: init.maxOpenOrders ?? null,
      ordersPerMinute: init.ordersPerMinute ?? null,
      publicKeyRaw,
      preapprovals: new Set(),
      prepareTimes: [],
      balancesWarmAt: null,
    };
    this.bySlug.set(account.slug, account);
    this.byParty.set(partyId, account);
    const apiKey = this.issueKey(account.slug, { apiKey: init.apiKey });
    return { account, apiKey };
  }

  /** Issues a (further) API key for an account. */
  issueKey(slug: string, opts: { apiKey?: string; expiresAt?: number | null } = {}): string {
    this.get(slug);
    let prefix: string;
    let secret: string;
    if (opts.apiKey !== undefined) {
      const m = API_KEY.exec(opts.apiKey);
      if (!m) throw new SimError(400, 'VALIDATION_ERROR', 'apiKey must look like mm_ak_<prefix>.<secret>');
      prefix = m[1]!;
      secret = m[2]!;
    } else {
      ({ prefix, secret } = this.ids.apiKeyParts());
    }
    if (this.keys.has(prefix)) throw new SimError(400, 'VALIDATION_ERROR', `key prefix taken: ${prefix}`);
    this.keys.set(prefix, {
      prefix,
      secretHash: hashSecret(secret),
      slug,
      revoked: false,
      expiresAt: opts.expiresAt ?? null,
    });
    return `mm_ak_${prefix}.${secret}`;
  }

  /** The account with `slug`; throws NOT_FOUND. */
  get(slug: string): Account {
    const a = this.bySlug.get(slug);
    if (!a) throw new SimError(404, 'NOT_FOUND', `no account ${slug}`);
    return a;
  }

  byPartyId(partyId: string): Account | undefined {
    return this.byParty.get(partyId);
  }

  all(): Account[] {
    return [...this.bySlug.values()];
  }

  key(prefix: string): ApiKeyRecord {
    const k = this.keys.get(prefix);
    if (!k) throw new SimError(404, 'NOT_FOUND', `no key ${prefix}`);
    return k;
  }

  /** The API key prefixes of an account. */
  keyPrefixes(slug: string): string[] {
    return [...this.keys.values()].filter((k) => k.slug === slug).map((k) => k.prefix);
  }

  /**
   * Resolves the caller from `Authorization: Bearer <key>` or `X-API-Key: <key>` (lower-cased
   * header names). Bearer wins when both are present.
   */
  authenticate(headers: Record<string, string | undefined>, now: number): Account {
    if (!this.authConfigured) {
      throw new SimError(503, 'AUTH_NOT_CONFIGURED', 'API key authentication is not configured');
    }
    let key: string | undefined;
    const auth = headers['authorization'];
    if (auth !== undefined && auth.trim() !== '') {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(auth.trim());
      if (!m) throw new SimError(401, 'INVALID_API_KEY', 'Malformed Authorization header');
      key = m[1];
    } else if (headers['x-api-key'] !== undefined && headers['x-api-key'].trim() !== '') {
      key = headers['x-api-key'].trim();
    }
    if (key === undefined) throw new SimError(401, 'MISSING_API_KEY', 'API key required');
    const m = API_KEY.exec(key);
    const rec = m ? this.keys.get(m[1]!) : undefined;
    if (!m || !rec || !timingSafeEqual(rec.secretHash, hashSecret(m[2]!))) {
      throw new SimError(401, 'INVALID_API_KEY', 'API key not recognised');
    }
    if (rec.revoked) throw new SimError(401, 'API_KEY_REVOKED', 'API key revoked');
    if (rec.expiresAt !== null && now >= rec.expiresAt)
      throw new SimError(401, 'API_KEY_EXPIRED', 'API key expired');
    return this.get(rec.slug);
  }

  /**
   * Counts one order prepare against the account's per-minute limit (a sliding 60 s window of
   * prepare arrivals, refused ones included); throws 429 RATE_LIMITED when the window is full.
   */
  takeRateSlot(account: Account, now: number): void {
    const limit = account.ordersPerMinute;
    account.prepareTimes = account.prepareTimes.filter((t) => t > now - RATE_WINDOW_MS);
    if (limit !== null && account.prepareTimes.length >= limit) {
      throw new SimError(429, 'RATE_LIMITED', `More than ${limit} orders per minute`, { limit });
    }
    account.prepareTimes.push(now);
  }
}

/** Hashes of the secrets presented lately: every request of a client presents the same one. */
const secretHashes = new Map<string, Buffer>();
const SECRET_CACHE_SIZE = 64;

function hashSecret(secret: string): Buffer {
  let hash = secretHashes.get(secret);
  if (hash === undefined) {
    hash = createHash('sha256').update(secret).digest();
    if (secretHashes.size >= SECRET_CACHE_SIZE) secretHashes.clear();
    secretHashes.set(secret, hash);
  }
  return hash;
}
