/**
 * The execution queues as observability sees them: {@link QueueState} keeps the last figures the
 * placement pipeline and the cancel pool reported (depth, in flight, oldest wait) and, since a
 * queue reports only when it changes, projects the oldest wait to the time of a scrape or a
 * `/status` read. It sets the queue gauges; it observes and never decides.
 */
import { msToSeconds } from './metrics/metric-number.js';
import type { PipelineMetrics } from './metrics/pipeline-metrics.js';
import type { QueueView } from './http/state-view.js';

/** Which execution queue. */
export type QueueName = 'placement' | 'cancel';

/** One queue's figures as last reported. */
export interface QueueSample {
  /** Tasks waiting (not started). */
  readonly depth: number;
  readonly inFlight: number;
  /** Age of the oldest waiting task when sampled, ms (0 when none waits). */
  readonly oldestWaitMs: number;
  /** When sampled, ms since the epoch (same clock as `now`). */
  readonly at: number;
}

/**
 * The last figures of each execution queue, and the gauges derived from them on scrape. Queue
 * events only arrive when a queue changes, so the oldest waiting task's age is projected to the
 * scrape time: `oldestWaitMs + (now - at)` while something waits.
 */
export class QueueState {
  private readonly samples = new Map<QueueName, QueueSample>();

  constructor(
    private readonly m: PipelineMetrics,
    private readonly now: () => number,
  ) {}

  /** Records a queue event (or the daemon's fresher figures). */
  record(queue: QueueName, sample: QueueSample): void {
    const prev = this.samples.get(queue);
    if (prev !== undefined && sample.at < prev.at) return; // an older report never wins
    this.samples.set(queue, sample);
  }

  /** The last sample of `queue`, if any. */
  get(queue: QueueName): QueueSample | undefined {
    return this.samples.get(queue);
  }

  /**
   * Each queue's figures now (for `/status`), the oldest waiting task's age projected to now as
   * the gauges do; a queue that never reported is left out.
   */
  view(): { placement?: QueueView; cancel?: QueueView } {
    const now = this.now();
    const out: { placement?: QueueView; cancel?: QueueView } = {};
    for (const [name, s] of this.samples) {
      out[name] = {
        depth: s.depth,
        inFlight: s.inFlight,
        oldestWaitMs: s.depth > 0 ? Math.max(0, s.oldestWaitMs + Math.max(0, now - s.at)) : 0,
      };
    }
    return out;
  }

  /** Sets the queue gauges (a scrape refresher). */
  refresh(): void {
    const now = this.now();
    this.set(this.samples.get('placement'), now, {
      depth: this.m.placementQueueDepth,
      age: this.m.placementQueueOldestAge,
      inFlight: this.m.placementsInFlight,
    });
    this.set(this.samples.get('cancel'), now, {
      depth: this.m.cancelQueueDepth,
      age: this.m.cancelQueueOldestAge,
      inFlight: this.m.cancelsInFlight,
    });
  }

  private set(
    s: QueueSample | undefined,
    now: number,
    g: {
      depth: PipelineMetrics['placementQueueDepth'];
      age: PipelineMetrics['placementQueueDepth'];
      inFlight: PipelineMetrics['placementQueueDepth'];
    },
  ): void {
    if (s === undefined) return;
    g.depth.set(s.depth);
    g.inFlight.set(s.inFlight);
    g.age.set(s.depth > 0 ? msToSeconds(Math.max(0, s.oldestWaitMs + Math.max(0, now - s.at))) : 0);
  }
}
