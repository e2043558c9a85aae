import { afterEach, describe, expect, it } from 'vitest';
import type { DaemonEvent } from '../../../src/daemon/daemon-types.js';
import { StoreLockedError, openJournal } from '../../../src/orders/journal/index.js';
import type { CallRecord } from '../../../src/sim/truth/ground-truth.js';
import type { FaultSpecInput } from '../../../src/sim/faults.js';
import { baseConfig, daemonEnv, disposeDaemonEnvs, type DaemonEnv } from '../support/daemon-env.js';

/**
 * The startup's provisional start (`execution.prepareBeforeBalances`): the first quote is
 * prepared while the preflight's GET /balances (slowed here by a latency spike) is still being
 * read, once the account, the pairs and the recovery of our own orders are known; nothing is
 * signed before the balances answer, and then only what the sign-time check (funds, inventory,
 * risk gate) still wants with them. The venue's ground truth shows what was signed: a submission.
 */

afterEach(disposeDaemonEnvs);

/** The slow cold read of the preflight: its first GET /balances answers after 20 s. */
const SLOW_BALANCES: FaultSpecInput = { kind: 'latency-spike', endpoint: 'balances', extraMs: 20_000, at: 1 };

function env(o: { prepareBeforeBalances?: boolean; balances?: Record<string, string> } = {}): DaemonEnv {
  return daemonEnv({
    latency: 'fast',
    takers: false,
    ...(o.balances === undefined ? {} : { balances: o.balances }),
    config: (store) => ({
      ...baseConfig(store),
      ...(o.prepareBeforeBalances === undefined
        ? {}
        : { execution: { prepareBeforeBalances: o.prepareBeforeBalances } }),
    }),
  });
}

const calls = (e: DaemonEnv, endpoint: CallRecord['endpoint']): CallRecord[] =>
  e.venue.truth.calls().filter((c) => c.endpoint === endpoint && c.partyId === e.partyId);
const firstBalances = (e: DaemonEnv): CallRecord | undefined => calls(e, 'balances')[0];
const prepares = (e: DaemonEnv): CallRecord[] => calls(e, 'prepare');
const submits = (e: DaemonEnv): CallRecord[] => e.venue.truth.submits();
/** An order of ours prepared and waiting in front of its signature. */
const held = (e: DaemonEnv): boolean =>
  e.daemon.engine?.orders.active().some((o) => o.state === 'PREPARED') === true;
const abandoned = (e: DaemonEnv): Extract<DaemonEvent, { type: 'prepare-abandoned' }>[] =>
  e.events.filter(
    (x): x is Extract<DaemonEvent, { type: 'prepare-abandoned' }> => x.type === 'prepare-abandoned',
  );

describe('preparing before the balances are known', () => {
  it('prepares the first quote while GET /balances is read, signs nothing before it answers, then signs after the sign-time check', async () => {
    const e = env();
    e.venue.addFault(SLOW_BALANCES);
    const started = e.daemon.start();
    await e.until(() => held(e), 15_000, 100);

    // GET /balances is still in flight; the first prepare has answered and waits unsigned.
    expect(firstBalances(e)?.endedAt).toBeNull();
    expect(prepares(e).filter((c) => c.status === 202)).toHaveLength(1);
    expect(submits(e)).toEqual([]);
    // It was planned provisionally, after the recovery read our own orders.
    const orders = calls(e, 'orders')[0]!;
    expect(prepares(e)[0]!.startedAt).toBeGreaterThanOrEqual(orders.endedAt!);
    expect(e.daemon.lastCycle?.strategy.provisional).toBe(true);
    // Not ready: the preflight has not passed.
    expect(e.daemon.phase).toBe('preflight');
    const r = e.daemon.readiness();
    expect(r.ready).toBe(false);
    expect(r.reasons.join('\n')).toMatch(/reading the balances .*nothing is signed before it passes/);

    await e.run(15_000, 500);
    expect(submits(e)).toEqual([]);
    expect(held(e)).toBe(true);

    await e.until(() => submits(e).length > 0, 30_000, 100);
    const answered = firstBalances(e)!.endedAt!;
    expect(submits(e)[0]!.startedAt).toBeGreaterThanOrEqual(answered);
    expect(prepares(e)[0]!.startedAt).toBeLessThan(answered - 15_000);
    // The sign-time check ran with the real balances; the cycles plan with them from then on.
    await e.run(3_000, 500);
    expect(e.daemon.lastCycle?.strategy.provisional).toBeUndefined();
    await e.until(() => e.bothTwoSided(), 120_000);
    expect(await started).toBe(true);
    expect(e.daemon.readiness().ready).toBe(true);
    expect(abandoned(e)).toEqual([]);
  });

  it.each<{ on: boolean; before: boolean }>([
    { on: true, before: true },
    { on: false, before: false },
  ])(
    'execution.prepareBeforeBalances $on: first prepare before the balances answer: $before',
    async ({ on, before }) => {
      const e = env({ prepareBeforeBalances: on });
      e.venue.addFault(SLOW_BALANCES);
      void e.daemon.start();
      await e.until(() => prepares(e).length > 0, 60_000, 100);
      const answered = firstBalances(e)!.endedAt;
      expect(answered === null || prepares(e)[0]!.startedAt < answered).toBe(before);
      await e.until(() => e.bothTwoSided(), 120_000);
    },
  );

  it('re-runs the risk gate at sign time: a limit lowered while the order waits abandons it unsigned, and nothing is retried', async () => {
    const e = env();
    e.venue.addFault(SLOW_BALANCES);
    void e.daemon.start();
    await e.until(() => held(e), 15_000, 100);
    // 1 500 USDC orders; the order notional limit drops to 1 000 (SIGHUP) while the order waits.
    const base = baseConfig(e.config.store.path);
    e.writeConfig({ ...base, risk: { ...(base.risk as object), maxOrderNotional: '1000' } });
    expect(e.daemon.reload()?.ok).toBe(true);
    await e.until(() => abandoned(e).length > 0, 30_000, 100);
    expect(abandoned(e)).toMatchObject([{ reason: 'not-wanted' }]);
    await e.run(120_000, 1_000);
    expect(submits(e)).toEqual([]);
    expect(prepares(e)).toHaveLength(1);
    expect(e.daemon.phase).toBe('running');
    expect(e.daemon.lastCycle?.verdict.denied.map((d) => d.reason)).toContain('max-order-notional');
  });

  it('funds gone when the balances answer: the prepared order fails the funds check at sign time, is abandoned unsigned, and not retried', async () => {
    const e = env();
    // The first read fails after 5 s; its retry reads the wallet after the withdrawal below.
    e.venue.addFault({ kind: 'latency-spike', endpoint: 'balances', extraMs: 5_000, at: 1 });
    e.venue.addFault({ kind: 'error', endpoint: 'balances', status: 503, at: 1 });
    void e.daemon.start();
    await e.until(() => held(e), 4_000, 100);
    // The venue accepted the prepare against the funds it had; now they leave the wallet, down to
    // amounts below the pairs' 10 USDC minimum notional.
    for (const [token, keep] of [
      ['USDC', '5'],
      ['BTC', '0.0001'],
      ['ETH', '0.001'],
    ] as const) {
      const balance = e.venue.engine.core.wallets.available(e.partyId, token);
      e.venue.operator.withdraw(e.slug, token, balance.minus(keep));
    }
    await e.until(() => abandoned(e).length > 0, 30_000, 100);
    expect(abandoned(e)).toMatchObject([{ reason: 'not-wanted' }]);
    const report = e.events.find((x) => x.type === 'preflight');
    expect(report?.type === 'preflight' && report.report.ok).toBe(true);
    await e.run(180_000, 1_000);
    expect(submits(e)).toEqual([]);
    expect(prepares(e)).toHaveLength(1);
    expect(e.daemon.phase).toBe('running');
    expect(e.daemon.lastCycle?.strategy.quotes).toEqual([]);
  });

  it('an empty wallet: the venue refuses the provisional prepare, and nothing more is prepared on a guess', async () => {
    const e = env({ balances: { USDC: '0', BTC: '0', ETH: '0' } });
    e.venue.addFault(SLOW_BALANCES);
    void e.daemon.start();
    await e.until(() => prepares(e).length > 0 && prepares(e)[0]!.endedAt !== null, 15_000, 100);
    expect(prepares(e)[0]).toMatchObject({ status: 400, code: 'INSUFFICIENT_BALANCE' });
    await e.run(10_000, 500);
    expect(firstBalances(e)?.endedAt).toBeNull();
    expect(prepares(e)).toHaveLength(1);
    expect(e.daemon.readiness().reasons.join('\n')).toMatch(/reading the balances/);
    await e.run(180_000, 1_000);
    // The balances (none) are known: the plan has nothing to fund.
    expect(e.daemon.phase).toBe('running');
    expect(prepares(e)).toHaveLength(1);
    expect(submits(e)).toEqual([]);
    expect(e.daemon.lastCycle?.strategy.quotes).toEqual([]);
  });

  it.each<{ name: string; faults: FaultSpecInput[]; detail: RegExp }>([
    {
      name: '5xx',
      faults: [
        { kind: 'latency-spike', endpoint: 'balances', extraMs: 5_000, at: 1, times: 3 },
        { kind: 'error', endpoint: 'balances', status: 503, at: 1, times: 3 },
      ],
      detail: /GET \/balances failed: INTERNAL_ERROR \(HTTP 503\)/,
    },
    {
      name: 'timeout',
      faults: [{ kind: 'hang', endpoint: 'balances', at: 1, times: 3 }],
      detail: /GET \/balances failed: CLIENT_TIMEOUT/,
    },
  ])(
    'GET /balances fails ($name): the prepared order is abandoned unsigned, the daemon is not ready, and the preflight is retried as without it',
    async ({ faults, detail }) => {
      const e = env();
      for (const f of faults) e.venue.addFault(f);
      const started = e.daemon.start();
      await e.until(() => held(e), 15_000, 100);
      await e.until(() => e.events.some((x) => x.type === 'preflight'), 200_000, 500);

      expect(abandoned(e)).toMatchObject([{ reason: 'not-signable' }]);
      expect(submits(e)).toEqual([]);
      expect(e.daemon.engine).toBeNull();
      expect(e.daemon.phase).toBe('preflight');
      const r = e.daemon.readiness();
      expect(r.ready).toBe(false);
      expect(r.reasons.join('\n')).toMatch(detail);
      // Journaled: the prepare was abandoned, never signed.
      const journal = openJournal({ path: e.config.store.path, clock: e.clock });
      try {
        const rows = journal.transitions(abandoned(e)[0]!.key);
        expect(rows.map((x) => x.toState)).toEqual(['INTENT', 'PREPARING', 'PREPARED', 'ABANDONED']);
        expect((rows.at(-1)!.event as { reason: string }).reason).toBe('not-signable');
      } finally {
        journal.close();
      }

      // The retry waits for the balances before it prepares anything, as without a provisional start.
      const failedAt = e.fake.now;
      await e.until(() => e.bothTwoSided(), 180_000);
      expect(await started).toBe(true);
      const retried = calls(e, 'balances').find((c) => c.startedAt >= failedAt)!;
      const later = prepares(e).filter((c) => c.startedAt >= failedAt);
      expect(later.length).toBeGreaterThan(0);
      expect(later.every((c) => c.startedAt >= retried.endedAt!)).toBe(true);
      expect(submits(e).every((c) => c.startedAt >= retried.endedAt!)).toBe(true);
    },
  );

  it('close() while the prepared order waits: abandoned unsigned, start() resolves false', async () => {
    const e = env();
    e.venue.addFault(SLOW_BALANCES);
    const started = e.daemon.start();
    await e.until(() => held(e), 15_000, 100);
    await e.closeDaemon(e.daemon, { cancelOrders: true, graceMs: 5_000 });
    expect(await started).toBe(false);
    expect(e.daemon.phase).toBe('closed');
    expect(abandoned(e)).toMatchObject([{ reason: 'aborted' }]);
    await e.run(30_000, 1_000);
    expect(submits(e)).toEqual([]);
  });

  it('a store held by another process is fatal, as without a provisional start', async () => {
    const e = env();
    await e.startQuoting();
    e.venue.addFault({ ...SLOW_BALANCES, at: calls(e, 'balances').length + 1 });
    const second = e.anotherDaemon();
    let outcome: unknown = 'pending';
    second.start().then(
      (ok) => (outcome = ok),
      (err: unknown) => (outcome = err),
    );
    await e.run(10_000, 500);
    // The provisional engine could not open the store; the start waits for the preflight's verdict.
    expect(outcome).toBe('pending');
    await e.run(20_000, 500);
    expect(outcome).toBeInstanceOf(StoreLockedError);
    expect(second.phase).toBe('failed');
    expect(second.readiness().ready).toBe(false);
  });

  it('orders the recovery finds are in the provisional plan: kept or replaced, never placed beside', async () => {
    const first = env();
    await first.startQuoting();
    await first.closeDaemon(first.daemon, { cancelOrders: false, graceMs: 5_000 });
    const recovered = first.resting().map((o) => o.clientOrderId!);
    expect(recovered).toHaveLength(4);

    const restartAt = first.fake.now;
    first.venue.addFault({ ...SLOW_BALANCES, at: calls(first, 'balances').length + 1 });
    const d = first.anotherDaemon();
    const plans: { kept: string[]; replaces: string[]; placed: string[]; own: string[] }[] = [];
    d.subscribe((ev) => {
      if (ev.type !== 'cycle' || ev.report.strategy.provisional !== true) return;
      const places = ev.report.verdict.allowed.flatMap((a) => (a.type === 'place' ? [a] : []));
      plans.push({
        kept: ev.report.plan.kept,
        replaces: places.flatMap((a) => (a.replaces === null ? [] : [a.replaces])),
        placed: places.map((a) => a.quote.slot),
        own: ev.report.own.map((o) => o.key),
      });
    });
    void d.start();
    await first.until(() => plans.length > 0, 15_000, 100);
    const recoveryRead = calls(first, 'orders').find((c) => c.startedAt >= restartAt)!;
    const preparedAfter = prepares(first).filter((c) => c.startedAt >= restartAt);
    expect(preparedAfter.length).toBeGreaterThan(0);
    expect(preparedAfter.every((c) => c.startedAt >= recoveryRead.endedAt!)).toBe(true);
    const [plan] = plans;
    expect(plan!.own).toEqual(expect.arrayContaining(recovered));
    // Every recovered order is accounted for: kept, or replaced (make before break).
    for (const key of recovered) expect([...plan!.kept, ...plan!.replaces]).toContain(key);
    // A slot whose order is kept gets no second placement.
    const keptSlots = first
      .resting()
      .filter((o) => plan!.kept.includes(o.clientOrderId!))
      .map((o) => o.pair + o.side);
    for (const slot of plan!.placed) expect(keptSlots).not.toContain(slot.split(':').slice(0, 2).join(''));
    await first.closeDaemon(d);
  });
});
