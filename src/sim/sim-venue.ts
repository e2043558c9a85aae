/**
 * The simulated venue in one object: {@link SimVenue} builds, from a sim config, a clock and a
 * seed, the engine, router, faults, latency model and market model, onboards the config's
 * accounts, and opens its faces (an in-process transport or HTTP on loopback). It stands where
 * the real venue stands at the end of the data flow; paper mode, the tests and the lab's runs
 * put the unchanged daemon in front of it.
 */
import { type Clock, systemClock } from '../core/clock.js';
import { dec } from '../core/decimal.js';
import type { Account as AccountWire } from '../venue/schemas.js';
import type { AccountSetup } from './engine/venue-engine.js';
import { VenueEngine } from './engine/venue-engine.js';
import type { GroundTruthView } from './truth/ground-truth-view.js';
import type { Operator } from './engine/operator.js';
import { accountView } from './engine/reads.js';
import { FaultInjector, type FaultSpecInput } from './faults.js';
import { HttpFace, type HttpFaceUrls } from './http-face.js';
import { IN_PROCESS_BASE_URL, IN_PROCESS_SUBMIT_URL, InProcessTransport } from './in-process-transport.js';
import { LatencyModel, type LatencyProfile } from './latency.js';
import type { MarketPort } from './market/market-port.js';
import { MarketModel } from './market/market-model.js';
import { Rng } from './rng.js';
import { Router } from './router/router.js';
import { type SimConfig, type SimConfigInput, SimConfigSchema, loadSimConfig } from './sim-config.js';

/** What building a {@link SimVenue} takes. */
export interface SimVenueOptions {
  /** The sim config (validated here); `config/sim.json` when absent. */
  config?: SimConfigInput;
  /** All time; the system clock when absent (pass `fakeClock(...)` for accelerated runs). */
  clock?: Clock;
  /** Overrides `config.seed`. */
  seed?: number | string;
  /** Overrides `config.latency.profile`. */
  latency?: LatencyProfile;
}

/** A registered account as {@link SimVenue.registerAccount} returns it. */
export interface RegisteredAccount {
  /** The API key, shown once (the venue keeps only its prefix and a hash). */
  apiKey: string;
  partyId: string;
  account: AccountWire;
}

/** Options of {@link SimVenue.listen}. */
export interface ListenOptions {
  host?: string;
  port?: number;
  submitPort?: number;
}

/**
 * The simulated venue, built from a sim config, a clock and a seed: the engine, the router, the
 * faults, the market model, and the two faces. Same seed, same config and same calls on the
 * same clock ⇒ the same run, event log included.
 *
 * ```ts
 * const venue = new SimVenue({ config, clock: fakeClock(fake), latency: 'instant' });
 * const { apiKey } = venue.registerAccount({ name: 'Acme', slug: 'acme', publicKey, balances: { USDC: '1000' } });
 * const transport = venue.createTransport();          // in-process, for the venue client
 * const urls = await venue.listen();                  // or over HTTP on port 0
 * venue.truth.orders(); venue.faults.add({ kind: 'error', endpoint: 'submit', status: 504, effect: true, at: 1 });
 * await venue.close();
 * ```
 */
export class SimVenue {
  readonly config: SimConfig;
  readonly clock: Clock;
  readonly rng: Rng;
  readonly engine: VenueEngine;
  readonly router: Router;
  readonly faults: FaultInjector;
  readonly latency: LatencyModel;
  /** The API keys of the config's accounts by slug: the only copy, the venue keeps hashes. */
  readonly apiKeys = new Map<string, string>();
  private marketModel: MarketModel | null = null;
  private readonly faces: HttpFace[] = [];
  private readonly transports: InProcessTransport[] = [];

  constructor(options: SimVenueOptions = {}) {
    const config = options.config === undefined ? loadSimConfig() : SimConfigSchema.parse(options.config);
    if (options.seed !== undefined) config.seed = options.seed;
    if (options.latency !== undefined) config.latency.profile = options.latency;
    this.config = config;
    this.clock = options.clock ?? systemClock;
    this.rng = new Rng(config.seed);
    this.engine = new VenueEngine({
      clock: this.clock,
      rng: this.rng,
      pairs: config.pairs.map((p) => ({
        pair: p.pair,
        base: p.base,
        quote: p.quote,
        minQuoteAmount: p.minQuoteAmount === null ? null : dec(p.minQuoteAmount),
        feeSymbol: p.feeSymbol,
        tick: p.tick === undefined ? null : dec(p.tick),
      })),
      settings: {
        preparedTtlMs: config.timing.preparedTtlMs,
        submitTokenTtlMs: config.timing.submitTokenTtlMs,
        balanceCacheTtlMs: config.timing.balanceCacheTtlMs,
        bookProjectionLagMs: config.bookProjectionLagMs,
      },
    });
    this.latency = new LatencyModel(config.latency, this.rng.fork('venue/latency'));
    this.faults = new FaultInjector(config.faults, this.rng.fork('venue/faults'), this.engine.core.truth);
    this.router = new Router({ engine: this.engine, faults: this.faults, latency: this.latency });
    for (const a of config.accounts) {
      const { apiKey } = this.registerAccount({ ...a });
      this.apiKeys.set(a.slug, apiKey);
    }
  }

  /** Builds a venue from a sim config file. */
  static fromFile(path: string, options: Omit<SimVenueOptions, 'config'> = {}): SimVenue {
    return new SimVenue({ ...options, config: loadSimConfig(path) });
  }

  /** The ground truth: orders with full history, calls, commits, balances over time, the event log. */
  get truth(): GroundTruthView {
    return this.engine.truth;
  }

  /** The operator's actions (suspend, revoke, withdraw, …). */
  get operator(): Operator {
    return this.engine.operator;
  }

  /** The port the market model drives. */
  get market(): MarketPort {
    return this.engine;
  }

  /**
   * Onboards an account. Preapprovals default to every token of its pairs; balances are
   * decimal strings. Returns the API key (shown once).
   */
  registerAccount(setup: AccountSetup): RegisteredAccount {
    const { account, apiKey } = this.engine.registerAccount(setup);
    return { apiKey, partyId: account.partyId, account: accountView(account) };
  }

  /** Registers (or replaces) an account's Ed25519 public key: base64 raw or SPKI, or raw bytes. */
  setPublicKey(slug: string, publicKey: string | Uint8Array): void {
    this.engine.operator.setPublicKey(slug, publicKey);
  }

  /** Adds a fault at runtime; returns its id. */
  addFault(spec: FaultSpecInput): string {
    return this.faults.add(spec);
  }

  /** Stops the book projection from refreshing for `ms` (a stale book). */
  freezeBook(ms: number): void {
    this.engine.core.projection.freeze(this.clock.now() + ms);
  }

  /**
   * An in-process {@link InProcessTransport} onto this venue; `answers: 'text'` hands every answer
   * over as text only, for the client to parse as over HTTP (default: parsed values beside it);
   * `'typed'` marks the values as the venue's own, so the client takes its book, trades and orders
   * reads without validating them again (see `InProcessTransportOptions.answers`).
   */
  createTransport(
    urls: { baseUrl?: string; submitUrl?: string; answers?: 'values' | 'text' | 'typed' } = {},
  ): InProcessTransport {
    const t = new InProcessTransport({
      router: this.router,
      baseUrl: urls.baseUrl ?? IN_PROCESS_BASE_URL,
      submitUrl: urls.submitUrl ?? IN_PROCESS_SUBMIT_URL,
      ...(urls.answers === undefined ? {} : { answers: urls.answers }),
    });
    this.transports.push(t);
    return t;
  }

  /** Serves this venue over HTTP (127.0.0.1, port 0 by default). */
  async listen(options: ListenOptions = {}): Promise<HttpFaceUrls> {
    const face = new HttpFace({ router: this.router, ...options });
    this.faces.push(face);
    return face.start();
  }

  /** Starts the market model (reference price, background makers, takers) on the venue's clock. */
  startMarket(onError?: (error: unknown, pair: string) => void): MarketModel {
    this.marketModel ??= new MarketModel({
      port: this.engine,
      clock: this.clock,
      rng: this.rng,
      config: this.config.market,
      onError,
    });
    this.marketModel.start();
    return this.marketModel;
  }

  /** Stops the market model (the book stays as it is). */
  stopMarket(): void {
    this.marketModel?.close();
  }

  /** Stops the market, closes every face and transport, and cancels every engine timer. */
  async close(): Promise<void> {
    this.stopMarket();
    await Promise.all(this.faces.map((f) => f.close()));
    await Promise.all(this.transports.map((t) => t.close()));
    this.engine.dispose();
  }
}
