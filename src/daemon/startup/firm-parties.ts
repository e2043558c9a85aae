/**
 * The firm's parties, when the daemon runs several (config `parties`): each party's venue client
 * (its own API key, and its own venue URLs where they differ), its preflight, its wallet, and the
 * firm engine built over an order engine per party (`execution/firm/firm-engine.ts`).
 *
 * The first party is the primary: the market data pollers read through its client (books,
 * trades and pairs are public and the same for every party), and its journal is `store.path`,
 * so a daemon that grows from one party to several keeps its journal. Every other party's
 * journal is its own `storePath`, by default `store.path` with the party's name before the
 * extension. The firm's balances are every party's read at once and summed; its account is
 * every party's read at once: the primary's, with the open-order and per-minute limits summed
 * over the parties (each party has its own, and each party's pipeline keeps within its own), and
 * ACTIVE while any party can trade (one that cannot drops out of the firm engine).
 */
import type { MmConfig } from '../../config/schema.js';
import type { TradingEngine } from '../../execution/engine-types.js';
import { FirmEngine } from '../../execution/firm/firm-engine.js';
import type { AllocationPolicy } from '../../execution/firm/party-allocator.js';
import { PartyWallets } from '../../execution/firm/party-wallets.js';
import type { FirmReads } from '../../market/market-pollers.js';
import type { VenueClient } from '../../venue/client.js';
import type { Account, Balance } from '../../venue/schemas.js';
import type { DaemonOptions } from '../daemon-types.js';
import {
  orderEngineOf,
  passPreflight,
  type EngineStart,
  type PreflightHooks,
  type StartupDeps,
} from './startup.js';
import type { BalancesPendingReport, PreflightReport } from './preflight.js';
import { createDaemonVenueClient } from './venue-client.js';
import type { PartyIdentity } from './party-identity.js';
import { partyStorePath } from './party-store.js';

export type { PartyIdentity } from './party-identity.js';
export { partyStorePath } from './party-store.js';

/** A party's passed preflight. */
type Passed = PreflightReport & { account: Account };

/** See the module doc. */
export class FirmParties {
  readonly venues: readonly VenueClient[];
  readonly wallets: PartyWallets;
  private readonly passed = new Map<string, Passed>();
  /** Each party's preflight that passed all but its balances (the provisional start's). */
  private readonly pending = new Map<string, BalancesPendingReport>();
  /** The parties whose GET /balances of the preflight is still under way. */
  private readonly stillReading = new Set<string>();
  /** True once the firm's provisional start was handed every party's pending report. */
  private provisional = false;
  /** The firm engine, once built: the account reads tell it which parties can trade. */
  private engine: FirmEngine | null = null;

  constructor(
    readonly identities: readonly PartyIdentity[],
    private readonly o: Pick<DaemonOptions, 'config' | 'clock' | 'transport' | 'random' | 'venueHooks'> & {
      readonly policy: AllocationPolicy;
    },
  ) {
    if (identities.length < 2) throw new RangeError('a firm of parties needs at least two');
    const names = new Set(identities.map((p) => p.name));
    if (names.size !== identities.length) throw new RangeError('party names must be unique');
    this.venues = identities.map((p) => createDaemonVenueClient({ ...o, config: partyConfig(o.config, p) }));
    this.wallets = new PartyWallets(identities.map((p) => p.name));
  }

  /** The primary's client: the market data pollers read through it. */
  get primary(): VenueClient {
    return this.venues[0]!;
  }

  /** The firm's balances and account, for the market pollers. */
  reads(): FirmReads {
    return {
      balances: async (signal) => {
        const marks = this.wallets.marks();
        const results = await Promise.allSettled(this.venues.map((v) => v.getBalances({ signal })));
        const at = this.o.clock.now();
        results.forEach((r, i) => {
          const name = this.identities[i]!.name;
          if (r.status === 'fulfilled') this.wallets.record(name, at, r.value, marks.get(name));
        });
        const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        try {
          return this.wallets.firm();
        } catch {
          throw failed?.reason ?? new Error('the balances of a party were never read');
        }
      },
      account: async (signal) => {
        const reads = await Promise.allSettled(this.venues.map((v) => v.getAccount({ signal })));
        const accounts = reads.map((r) => (r.status === 'fulfilled' ? r.value : null));
        accounts.forEach((a, i) => {
          if (a !== null) this.engine?.accountRead(this.identities[i]!.name, a.status);
        });
        const primary = reads[0]!;
        if (primary.status === 'rejected') throw primary.reason;
        return this.firmAccount(primary.value, accounts);
      },
    };
  }

  /**
   * Runs every party's preflight until each passes (at once, each retried on the slow timer);
   * `onReport` gets the primary's reports. Resolves with the primary's passing report (its
   * balances the firm's, its account limits the firm's), or null when closed first.
   */
  async preflight(
    deps: StartupDeps,
    onReport: (report: PreflightReport) => void,
    hooks: PreflightHooks = {},
  ): Promise<Passed | null> {
    const reports = await Promise.all(
      this.identities.map((p, i) =>
        passPreflight(
          { ...deps, venue: this.venues[i]!, signer: p.signer, logger: deps.logger.child({ party: p.name }) },
          i === 0 ? onReport : () => undefined,
          this.partyHooks(p.name, hooks),
        ).then((r) => {
          // A party whose balances came first is ready too: its full report stands for its pending one.
          if (r !== null && hooks.onBalancesPending !== undefined)
            this.ready(p.name, r, hooks.onBalancesPending, false);
          return r;
        }),
      ),
    );
    if (reports.some((r) => r === null)) return null;
    const at = this.o.clock.now();
    reports.forEach((r, i) => {
      const name = this.identities[i]!.name;
      this.passed.set(name, r!);
      if (r!.balances !== undefined) this.wallets.record(name, at, r!.balances);
    });
    const primary = reports[0]!;
    let balances: Balance[] | undefined;
    try {
      balances = this.wallets.firm();
    } catch {
      balances = undefined;
    }
    return {
      ...primary,
      account: this.firmAccount(primary.account),
      ...(balances === undefined ? {} : { balances }),
    };
  }

  /** A builder of the firm engine over a fresh order engine per party (after the preflight). */
  builder(
    deps: StartupDeps,
    start: Omit<EngineStart, 'partyId' | 'clientOrderIdPrefix'>,
    pairOf: FirmPairOf,
  ): () => TradingEngine {
    const { config } = deps;
    return () => {
      const parties = this.identities.map((p, i) => {
        // The passed preflight, or (a provisional start) the one that passed all but the balances.
        const passed = this.passed.get(p.name) ?? this.pending.get(p.name);
        if (passed === undefined) throw new Error(`party ${p.name} has not passed its preflight`);
        const engine = orderEngineOf(deps, start, {
          venue: this.venues[i]!,
          signer: p.signer,
          partyId: passed.account.partyId,
          clientOrderIdPrefix: passed.account.clientOrderIdPrefix,
          storePath: partyStorePath(config.store.path, p, i),
        });
        return {
          name: p.name,
          engine,
          pairs: p.pairs ?? null,
          sides: p.sides ?? null,
          maxOpenOrders: passed.account.limits.maxOpenOrders,
          ordersPerMinute: passed.account.limits.ordersPerMinute,
        };
      });
      this.engine = new FirmEngine({
        parties,
        clock: deps.clock,
        policy: this.o.policy,
        rateBurst: config.risk.rateBurst,
        wallets: this.wallets,
        pairOf,
      });
      return this.engine;
    };
  }

  /**
   * One party's preflight hooks for the firm's provisional start (`execution.prepareBeforeBalances`):
   * once every party has passed all but its balances, the firm's `onBalancesPending` gets the
   * primary's pending report with the firm's account, once. A party whose attempt then fails
   * undoes it (`onFailed`) and forgets its pending report; the start then waits for every
   * party's full preflight, as without a provisional start.
   */
  private partyHooks(name: string, hooks: PreflightHooks): PreflightHooks {
    if (hooks.onBalancesPending === undefined) return {};
    const onPending = hooks.onBalancesPending;
    return {
      onBalancesPending: (early) => this.ready(name, early, onPending, true),
      onFailed: async (report) => {
        this.pending.delete(name);
        this.stillReading.delete(name);
        if (!this.provisional) return;
        this.provisional = false;
        await hooks.onFailed?.(report);
      },
    };
  }

  /**
   * Party `name` passed all but its balances (`pending`) or everything: once every party has, and
   * one still reads its balances, the firm's provisional start begins, once.
   */
  private ready(
    name: string,
    early: BalancesPendingReport | PreflightReport,
    onPending: (early: BalancesPendingReport) => void,
    pending: boolean,
  ): void {
    if (early.account === undefined) return;
    this.pending.set(name, { account: early.account, pairs: early.pairs ?? [] });
    if (pending) this.stillReading.add(name);
    else this.stillReading.delete(name);
    if (this.provisional || this.stillReading.size === 0) return;
    if (!this.identities.every((p) => this.pending.has(p.name))) return;
    const primary = this.pending.get(this.identities[0]!.name)!;
    this.provisional = true;
    onPending({ ...primary, account: this.firmAccount(primary.account) });
  }

  /** Closes every party's client but the primary's (the daemon closes that one). */
  async closeOthers(): Promise<void> {
    await Promise.all(this.venues.slice(1).map((v) => v.close()));
  }

  /**
   * The primary's account with each limit summed over the parties that passed (each has its
   * own). Its status is ACTIVE while any party's last read is: a party whose account cannot
   * trade drops out of the firm engine (`FirmEngine.accountRead`), and the others carry on,
   * the primary too.
   */
  private firmAccount(primary: Account, reads: readonly (Account | null)[] = []): Account {
    const sum = (pick: (a: Account) => number | null): number | null => {
      let total = 0;
      for (const p of this.identities) {
        const a =
          p.name === this.identities[0]!.name
            ? primary
            : (this.passed.get(p.name)?.account ?? this.pending.get(p.name)?.account);
        const v = a === undefined ? null : pick(a);
        if (v === null) return null;
        total += v;
      }
      return total;
    };
    const active = primary.status !== 'ACTIVE' && reads.some((a) => a?.status === 'ACTIVE');
    return {
      ...primary,
      ...(active ? { status: 'ACTIVE' as const } : {}),
      limits: {
        ...primary.limits,
        maxOpenOrders: sum((a) => a.limits.maxOpenOrders),
        ordersPerMinute: sum((a) => a.limits.ordersPerMinute),
      },
    };
  }
}

/** Base and quote of a pair, from the market state. */
export type FirmPairOf = (pair: string) => { readonly base: string; readonly quote: string } | undefined;

/** The config as party `p` sees it: its API key and venue URLs. */
function partyConfig(config: MmConfig, p: PartyIdentity): MmConfig {
  return {
    ...config,
    venue: {
      ...config.venue,
      apiKey: p.apiKey,
      baseUrl: p.baseUrl ?? config.venue.baseUrl,
      submitUrl: p.submitUrl ?? config.venue.submitUrl,
    },
  };
}
