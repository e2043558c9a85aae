/**
 * The watchdog's sweep over a firm of parties (`firm.parties`): one {@link CancelSweeper} per
 * party, each with that party's venue client (its API key), its signing key and a journal of its
 * own (the watchdog's `watchdog.storePath` for the primary, the same with `.<name>` before the
 * extension for the others, as the daemon names its parties' journals). A sweep runs every
 * party's at once and adds their reports up: one party whose account cannot be read, or whose key
 * is not its own, is a `sweep_failed` failure of that party, and the others are swept all the
 * same. The firm's `left` is the sum, or -1 (not known) when any party's re-list was not read.
 */
import type { CancelSweeper, SweepReport } from './cancel-sweep.js';

/** One party's sweeper. */
export interface PartySweeper {
  readonly name: string;
  readonly sweeper: Pick<CancelSweeper, 'sweep'>;
}

/** See the module doc. */
export class FirmSweeper {
  constructor(private readonly parties: readonly PartySweeper[]) {
    if (parties.length === 0) throw new RangeError('a firm sweep needs at least one party');
  }

  /** One sweep of every party at once; `onCancelled` is told each order as its cancel is confirmed. */
  async sweep(signal: AbortSignal, onCancelled?: (orderId: string) => void): Promise<SweepReport> {
    const results = await Promise.allSettled(this.parties.map((p) => p.sweeper.sweep(signal, onCancelled)));
    const cancelled: string[] = [];
    const failures: SweepReport['failures'][number][] = [];
    let gone = 0;
    let left = 0;
    const errors: unknown[] = [];
    results.forEach((r, i) => {
      const name = this.parties[i]!.name;
      if (r.status === 'rejected') {
        const detail = r.reason instanceof Error ? r.reason.message : String(r.reason);
        failures.push({ orderId: null, reason: 'sweep_failed', detail: `party ${name}: ${detail}` });
        errors.push(r.reason);
        left = -1;
        return;
      }
      cancelled.push(...r.value.cancelled);
      for (const f of r.value.failures) failures.push({ ...f, detail: `party ${name}: ${f.detail}` });
      gone += r.value.gone;
      left = left < 0 || r.value.left < 0 ? -1 : left + r.value.left;
    });
    // Every party failed alike: the sweep failed (the watchdog logs it and tries again).
    if (errors.length === results.length) {
      throw new AggregateError(errors, failures.map((f) => f.detail).join('; '));
    }
    return { cancelled, failures, gone, left };
  }
}
