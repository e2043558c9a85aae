/**
 * The daemon's sign gate (its placement policy's `maySign`, see `quote-policy.ts`). While the startup's GET /balances
 * is still being read beside a provisional plan (`execution.prepareBeforeBalances`) the gate is
 * held: a prepared placement waits in front of its signature. It opens when the preflight has
 * passed in full (the balances are known, and the pipeline's sign-time check then judges the
 * order with them), and refuses when the preflight failed: a waiting placement is then abandoned
 * unsigned. Open by default, so a daemon that never holds it signs as before.
 */

/** Where the gate stands. */
export type BalancesGateState = 'open' | 'held' | 'refused';

/** See the module doc. */
export class BalancesGate {
  private current: BalancesGateState = 'open';
  private readonly waiters = new Set<(open: boolean) => void>();

  /** Where the gate stands now. */
  get state(): BalancesGateState {
    return this.current;
  }

  /** Placements waiting at the gate. */
  get waiting(): number {
    return this.waiters.size;
  }

  /** Holds every placement that reaches the gate from now on, until {@link open} or {@link refuse}. */
  hold(): void {
    this.current = 'held';
  }

  /** Lets every waiting and later placement go on to its sign-time check. */
  open(): void {
    this.settle('open');
  }

  /** Abandons every waiting placement unsigned; later ones too, until {@link open} or {@link hold}. */
  refuse(): void {
    this.settle('refused');
  }

  /**
   * Resolves true once the gate is open, false when it is refused or `signal` aborts first. Never
   * rejects.
   */
  wait(signal: AbortSignal): Promise<boolean> {
    if (this.current !== 'held') return Promise.resolve(this.current === 'open');
    if (signal.aborted) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const done = (open: boolean): void => {
        this.waiters.delete(done);
        signal.removeEventListener('abort', onAbort);
        resolve(open);
      };
      const onAbort = (): void => done(false);
      this.waiters.add(done);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private settle(state: 'open' | 'refused'): void {
    this.current = state;
    for (const w of [...this.waiters]) w(state === 'open');
  }
}
