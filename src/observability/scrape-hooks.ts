/**
 * Refreshing state-derived series on scrape.
 *
 * Gauges derived from state (quotes, balances, orders by state, queue ages…) are not pushed by
 * the daemon: each such metric has a prom-client `collect` callback that calls
 * {@link ScrapeHooks.refresh}, which runs every registered refresher ONCE per scrape and sets
 * the gauges from what the daemon exposes. "Once per scrape" is a latch cleared on the next
 * microtask: prom-client starts the `get()` of every metric of a scrape in one synchronous loop,
 * so all collects of one scrape share one refresh. Should a future prom-client await between
 * metrics, refreshers would simply run more than once per scrape: values stay correct, only the
 * cost grows.
 *
 * A refresher that throws never fails the scrape: the error is counted
 * (`ledger_mm_metrics_collect_errors_total`) and the series keep their previous values.
 */

/** A function that sets state-derived series. */
export type Refresher = () => void;

/** The refreshers of one metrics instance. */
export class ScrapeHooks {
  private readonly refreshers = new Set<Refresher>();
  private fresh = false;

  constructor(private readonly onError: (error: unknown) => void) {}

  /** Adds a refresher; returns its removal. */
  add(refresher: Refresher): () => void {
    this.refreshers.add(refresher);
    return () => {
      this.refreshers.delete(refresher);
    };
  }

  /** The `collect` callback of every state-derived metric. */
  readonly collect = (): void => {
    if (this.fresh) return;
    this.fresh = true;
    queueMicrotask(() => {
      this.fresh = false;
    });
    this.runAll();
  };

  /** Runs every refresher now, whatever the latch says (the daemon may call it each cycle). */
  runAll(): void {
    for (const r of [...this.refreshers]) {
      try {
        r();
      } catch (err) {
        try {
          this.onError(err);
        } catch {
          // Counting an error must not fail a scrape either.
        }
      }
    }
  }
}
