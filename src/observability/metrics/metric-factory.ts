/**
 * Creates prom-client metrics on one dedicated registry (never the global one). A metric marked
 * `derived` is computed from state on scrape: its `collect` runs the {@link ScrapeHooks}.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

import type { ScrapeHooks } from '../scrape-hooks.js';

/** See the module doc. */
export class MetricFactory {
  constructor(
    readonly registry: Registry,
    private readonly hooks: ScrapeHooks,
  ) {}

  /** A counter; `name` must end with `_total`. */
  counter<L extends string = never>(
    name: string,
    help: string,
    labelNames: readonly L[] = [],
    derived = false,
  ): Counter<L> {
    if (!name.endsWith('_total')) throw new Error(`counter ${name} must end with _total`);
    return new Counter<L>({
      name,
      help,
      labelNames,
      registers: [this.registry],
      ...(derived ? { collect: this.hooks.collect } : {}),
    });
  }

  /** A gauge; `derived` ones are set on scrape. */
  gauge<L extends string = never>(
    name: string,
    help: string,
    labelNames: readonly L[] = [],
    derived = false,
  ): Gauge<L> {
    return new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [this.registry],
      ...(derived ? { collect: this.hooks.collect } : {}),
    });
  }

  /** A histogram in seconds; `name` must end with `_seconds`. */
  histogram<L extends string = never>(
    name: string,
    help: string,
    labelNames: readonly L[],
    buckets: readonly number[],
  ): Histogram<L> {
    if (!name.endsWith('_seconds')) throw new Error(`histogram ${name} must end with _seconds`);
    return new Histogram<L>({ name, help, labelNames, buckets: [...buckets], registers: [this.registry] });
  }

  /** A histogram in basis points (price moves); `name` must end with `_bps`. */
  bpsHistogram<L extends string = never>(
    name: string,
    help: string,
    labelNames: readonly L[],
    buckets: readonly number[],
  ): Histogram<L> {
    if (!name.endsWith('_bps')) throw new Error(`histogram ${name} must end with _bps`);
    return new Histogram<L>({ name, help, labelNames, buckets: [...buckets], registers: [this.registry] });
  }
}
