/** A metrics instance with a settable clock, and helpers to read scraped values. */

import {
  createMetrics,
  type CreateMetricsOptions,
  type Metrics,
} from '../../../src/observability/metrics/create-metrics.js';
import { parseExposition, samplesOf, valueOf, type Family } from './exposition.js';
export interface TestMetrics {
  readonly metrics: Metrics;
  /** The metrics clock, ms; tests move it. */
  now: number;
  scrape(): Promise<Map<string, Family>>;
  value(name: string, labels?: Record<string, string>): Promise<number | undefined>;
  close(): void;
}

export const T0 = 1_800_000_000_000;

/** Default process metrics are off here: tests read only our series. */
export function testMetrics(opts: CreateMetricsOptions = {}): TestMetrics {
  const clock = { now: T0 };
  const metrics = createMetrics({
    pairs: ['BTC/USDC', 'ETH/USDC'],
    defaultMetrics: false,
    now: () => clock.now,
    build: { version: '0.0.0-test', commit: 'test' },
    ...opts,
  });
  const scrape = async (): Promise<Map<string, Family>> => parseExposition(await metrics.scrape());
  return {
    metrics,
    get now() {
      return clock.now;
    },
    set now(v: number) {
      clock.now = v;
    },
    scrape,
    value: async (name, labels = {}) => valueOf(await scrape(), name, labels),
    close: () => metrics.close(),
  };
}

export { samplesOf, valueOf };
