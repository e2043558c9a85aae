/** The daemon's readiness verdict (`/readyz`): its inputs and its reasons. */
import { describe, expect, it } from 'vitest';
import { assessDaemonReadiness, type ReadinessInput } from '../../src/daemon/reporting/daemon-readiness.js';
import type { RiskVerdict } from '../../src/risk/risk-types.js';

describe('readiness', () => {
  const verdict = (over: Partial<RiskVerdict> = {}): RiskVerdict =>
    ({
      ready: true,
      reasons: [],
      pairStates: { 'BTC/USDC': 'active', 'ETH/USDC': 'active' },
      ...over,
    }) as RiskVerdict;
  const input = (over: Partial<ReadinessInput> = {}): ReadinessInput => ({
    phase: 'running',
    preflight: null,
    recoveryError: null,
    account: {
      status: 'ACTIVE',
      maxOpenOrders: null,
      ordersPerMinute: null,
      clientOrderIdPrefix: 'x-',
      readAt: 0,
      authFailing: false,
    },
    authFailing: false,
    verdict: verdict(),
    stale: [],
    pairs: ['BTC/USDC', 'ETH/USDC'],
    ...over,
  });
  it('is ready when running with an ACTIVE account and a quoting pair; lists halted pairs', () => {
    expect(assessDaemonReadiness(input())).toEqual({ ready: true, reasons: [] });
    const oneHalted = verdict({
      pairStates: { 'BTC/USDC': 'halted', 'ETH/USDC': 'active' },
      reasons: [{ pair: 'BTC/USDC', rule: 'price-jump', detail: 'paused' }],
    });
    expect(assessDaemonReadiness(input({ verdict: oneHalted }))).toEqual({
      ready: true,
      reasons: ['BTC/USDC: price-jump: paused'],
    });
    const allHalted = verdict({ pairStates: { 'BTC/USDC': 'halted', 'ETH/USDC': 'halted' } });
    expect(assessDaemonReadiness(input({ verdict: allHalted })).ready).toBe(false);
  });
  it('is not ready, with reasons, when the key fails, the account is suspended, or before running', () => {
    const r = assessDaemonReadiness(input({ authFailing: true, verdict: verdict({ ready: false }) }));
    expect(r.ready).toBe(false);
    expect(r.reasons).toContain('the API key is failing (401 on the last authenticated call)');
    const s = assessDaemonReadiness(input({ account: { ...input().account!, status: 'SUSPENDED' } }));
    expect(s.reasons.join()).toContain('SUSPENDED');
    expect(assessDaemonReadiness(input({ phase: 'recovering' })).ready).toBe(false);
    expect(assessDaemonReadiness(input({ phase: 'closing' })).reasons).toEqual(['shutting down']);
  });
});
