/**
 * The daemon's pause set and its durable log. A change is written to the journal's control log
 * first (a durable row) and only then put in force, so what the daemon does is always what a
 * restart will read back; the set in force after a restart is the fold of that log.
 *
 * The log is the engine's journal, which opens when the engine starts: until then an operator's
 * change is refused ({@link ControlNotReady}). The kill switch never waits: when its change cannot
 * be written it is put in force anyway (stopping is always safe) and reported.
 */
import type { Clock } from '../../core/clock.js';
import type { ControlChange, ControlChangeInput } from '../../orders/journal/index.js';
import {
  describeScope,
  stillPausing,
  withPause,
  withoutPauses,
  type PauseEntry,
  type PauseReason,
  type PauseScope,
  type PauseSet,
} from '../../risk/pause-set.js';

/** The journal's control log, as the engine hands it out. */
export interface ControlLogPort {
  record(change: ControlChangeInput): number;
  changes(): ControlChange[];
}

const NOT_OPEN =
  "the daemon's journal is not open (it is starting, or stopping), so the change could not be journaled; try again once it runs";

/** The control log is not open (the daemon is starting, or stopping). */
export class ControlNotReady extends Error {
  override readonly name = 'ControlNotReady';
}

/** What a resume did. */
export interface ResumeOutcome {
  readonly lifted: readonly PauseEntry[];
  /** Wider pauses that still hold part of the scope. */
  readonly still: readonly PauseEntry[];
}

/** Options of {@link PauseBook}. */
export interface PauseBookOptions {
  readonly clock: Pick<Clock, 'now'>;
  /** The control log once the engine's journal is open; null before (or throws when it fails). */
  readonly log: () => ControlLogPort | null;
  /** Told when the log could not be read or written (for the log). Must not throw. */
  readonly onLogError: (what: string, error: unknown) => void;
}

/** See the module doc. */
export class PauseBook {
  private set: PauseSet = [];
  private attached: ControlLogPort | null = null;

  constructor(private readonly o: PauseBookOptions) {}

  /** The pauses in force (the log read first, when it has just opened). */
  pauses(): PauseSet {
    this.attach();
    return this.set;
  }

  /** True once the control log has been read. */
  get ready(): boolean {
    return this.attach() !== null;
  }

  /** Pauses `scope` for an operator: journaled, then in force. Throws ControlNotReady before the log opens. */
  pause(scope: PauseScope, by: string): PauseEntry {
    const log = this.attach();
    if (log === null) throw new ControlNotReady(NOT_OPEN);
    const entry = this.entry(scope, 'operator', by, '');
    log.record({ action: 'pause', ...scope, reason: 'operator', by, detail: '', at: entry.at });
    this.set = withPause(this.set, entry);
    return entry;
  }

  /** Lifts every pause within `scope` (the kill switch's included): journaled, then in force. */
  resume(scope: PauseScope, by: string): ResumeOutcome {
    const log = this.attach();
    if (log === null) throw new ControlNotReady(NOT_OPEN);
    const at = this.o.clock.now();
    log.record({ action: 'resume', ...scope, reason: 'operator', by, detail: '', at });
    const { set, lifted } = withoutPauses(this.set, scope);
    this.set = set;
    return { lifted, still: stillPausing(set, scope) };
  }

  /**
   * Pauses `scope` for the kill switch: journaled when the log can take it, in force either way.
   * Returns the entry and whether it was journaled.
   */
  trip(scope: PauseScope, detail: string): { entry: PauseEntry; journaled: boolean } {
    const entry = this.entry(scope, 'kill-switch', 'kill-switch', detail);
    let journaled = false;
    try {
      const log = this.attach();
      if (log !== null) {
        log.record({ action: 'pause', ...scope, reason: 'kill-switch', by: entry.by, detail, at: entry.at });
        journaled = true;
      }
    } catch (error) {
      this.o.onLogError(`writing the kill switch's pause of ${describeScope(scope)}`, error);
    }
    this.set = withPause(this.set, entry);
    return { entry, journaled };
  }

  private entry(scope: PauseScope, reason: PauseReason, by: string, detail: string): PauseEntry {
    return { pair: scope.pair, side: scope.side, reason, by, at: this.o.clock.now(), detail };
  }

  /** Reads the log once it is open: the set is its fold, merged over what is in memory. */
  private attach(): ControlLogPort | null {
    if (this.attached !== null) return this.attached;
    let log: ControlLogPort | null;
    let changes: ControlChange[];
    try {
      log = this.o.log();
      if (log === null) return null;
      changes = log.changes();
    } catch (error) {
      this.o.onLogError('reading the control log', error);
      return null;
    }
    const replayed = foldControlLog(changes);
    // A kill-switch pause put in force before the log opened stays in force.
    this.set = this.set.reduce((set, e) => withPause(set, e), replayed);
    this.attached = log;
    return log;
  }
}

/** The pause set a control log leaves in force: its changes applied in order. */
export function foldControlLog(changes: readonly ControlChange[]): PauseSet {
  let set: PauseSet = [];
  for (const c of changes) {
    const scope = { pair: c.pair, side: c.side };
    if (c.action === 'resume') set = withoutPauses(set, scope).set;
    else {
      const reason: PauseReason = c.reason === 'kill-switch' ? 'kill-switch' : 'operator';
      set = withPause(set, { ...scope, reason, by: c.by, at: c.at, detail: c.detail });
    }
  }
  return set;
}
