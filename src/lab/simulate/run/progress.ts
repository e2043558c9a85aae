/**
 * Progress of simulated time on stderr. On a terminal, one line redrawn in place with a bar per
 * run; elsewhere (a log, CI), a plain line each time a run passes another tenth of its length.
 * Wall time shows here only: it never enters the report.
 */

/** Options of {@link Progress}. */
export interface ProgressOptions {
  readonly write: (text: string) => void;
  /** Redraw one line in place (stderr is a terminal). */
  readonly tty: boolean;
  /** Simulated ms of each run. */
  readonly totalMs: number;
  /** Wall-clock ms (for the elapsed time shown). */
  readonly wallNow: () => number;
  readonly barWidth?: number;
}

/** Tracks the simulated time of one or more runs; see the module doc. */
export class Progress {
  private readonly runs = new Map<string, number>();
  private readonly tenths = new Map<string, number>();
  private readonly started: number;
  private lastDraw = -Infinity;

  constructor(private readonly o: ProgressOptions) {
    this.started = o.wallNow();
  }

  /** Registers a run (shown at 0 until it reports). */
  add(run: string): void {
    this.runs.set(run, 0);
    this.tenths.set(run, 0);
  }

  /** A run reached `elapsedMs` of simulated time. */
  update(run: string, elapsedMs: number): void {
    this.runs.set(run, Math.min(elapsedMs, this.o.totalMs));
    if (this.o.tty) {
      const now = this.o.wallNow();
      if (now - this.lastDraw < 100 && elapsedMs < this.o.totalMs) return;
      this.lastDraw = now;
      this.o.write(`\r${this.line()}\u001b[K`);
      return;
    }
    const tenth = Math.floor((10 * elapsedMs) / this.o.totalMs);
    if (tenth <= (this.tenths.get(run) ?? 0)) return;
    this.tenths.set(run, tenth);
    this.o.write(
      `ledger-mm simulate: ${run} ${this.hours(elapsedMs)} of ${this.hours(this.o.totalMs)} simulated (${tenth * 10} %), ${this.wall()} wall\n`,
    );
  }

  /** Ends the progress line (on a terminal). */
  done(): void {
    if (this.o.tty && this.runs.size > 0) this.o.write(`\r${this.line()}\u001b[K\n`);
  }

  private line(): string {
    const width = this.o.barWidth ?? (this.runs.size > 1 ? 12 : 30);
    const parts = [...this.runs].map(([run, ms]) => {
      const filled = Math.round((width * ms) / this.o.totalMs);
      return `${run} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${this.hours(ms)}`;
    });
    return `simulated ${parts.join('  ')}  (${this.wall()} wall)`;
  }

  private hours(ms: number): string {
    return `${(ms / 3_600_000).toFixed(1)} h`;
  }

  private wall(): string {
    return `${((this.o.wallNow() - this.started) / 1000).toFixed(1)} s`;
  }
}
