/**
 * Order counters from the registry: fills (count, base volume, quote notional), contractId
 * rotations, residual expiries, foreign adoptions and state-machine alarms.
 *
 * Two equivalent sources, use ONE of them (both would count everything twice):
 * - {@link bindRegistry}: the `OrderRegistry`'s own `onTransition` (its effects);
 * - the `OrderEngine`'s events, whose order observations (`fill`, `order-rotated`,
 *   `order-terminal`, `order-alarm`, `order-transition`) are the same effects re-emitted by its
 *   fill tracker: `bindExecutionEvents(metrics, engine)` handles them through
 *   {@link observeOrderObservation}.
 *
 * Orders by local state are not counted here: they are a gauge set on scrape from the daemon's
 * `orderCounts` (see `state-collector.ts`).
 */
import type { TransitionCause, TransitionRecord } from '../orders/order-registry.js';
import type {
  AlarmEffect,
  FillEffect,
  OrderEffect,
  RotatedEffect,
  TerminalEffect,
} from '../orders/fsm/index.js';
import type { Metrics } from './metrics/create-metrics.js';
import { sideLabel, snake } from './metrics/labels.js';
import { toMetricNumber } from './metrics/metric-number.js';

/** What {@link bindRegistry} needs of an `OrderRegistry`. */
export interface TransitionSource {
  onTransition(listener: (record: TransitionRecord) => void): () => void;
}

/** Subscribes the order counters to `registry`; returns the unsubscribe. */
export function bindRegistry(metrics: Metrics, registry: TransitionSource): () => void {
  return registry.onTransition((record) => observeTransition(metrics, record));
}

/**
 * Counts one stored registry change. Never throws: a throwing observer would surface as an
 * `ObserverError` to whoever applied the event.
 */
export function observeTransition(metrics: Metrics, record: TransitionRecord): void {
  try {
    if (record.cause === 'adopted') metrics.orders.foreignAdopted.inc();
    for (const effect of record.effects) observeEffect(metrics, effect, record.order.pair);
  } catch {
    metrics.control.collectErrors.inc();
  }
}

/**
 * The order observations of the `OrderEngine` (its fill tracker's events), structurally: only
 * the fields metrics read.
 */
export type OrderObservationLike =
  | { readonly type: 'fill'; readonly fill: FillEffect }
  | {
      readonly type: 'order-rotated';
      readonly rotated: RotatedEffect;
      readonly order: { readonly pair: string };
    }
  | {
      readonly type: 'order-terminal';
      readonly terminal: TerminalEffect;
      readonly order: { readonly pair: string };
    }
  | { readonly type: 'order-alarm'; readonly alarm: AlarmEffect; readonly order: { readonly pair: string } }
  | { readonly type: 'order-transition'; readonly cause: TransitionCause };

/** The `type`s of {@link OrderObservationLike}. */
export const ORDER_OBSERVATION_TYPES: ReadonlySet<string> = new Set([
  'fill',
  'order-rotated',
  'order-terminal',
  'order-alarm',
  'order-transition',
]);

/** Counts one order observation of the engine. */
export function observeOrderObservation(metrics: Metrics, obs: OrderObservationLike): void {
  switch (obs.type) {
    case 'fill':
      observeEffect(metrics, obs.fill, obs.fill.pair);
      return;
    case 'order-rotated':
      observeEffect(metrics, obs.rotated, obs.order.pair);
      return;
    case 'order-terminal':
      observeEffect(metrics, obs.terminal, obs.order.pair);
      return;
    case 'order-alarm':
      observeEffect(metrics, obs.alarm, obs.order.pair);
      return;
    case 'order-transition':
      if (obs.cause === 'adopted') metrics.orders.foreignAdopted.inc();
      return;
  }
}

function observeEffect(metrics: Metrics, effect: OrderEffect, orderPair: string): void {
  const { orders, money, labels } = metrics;
  switch (effect.type) {
    case 'fill': {
      const l = { pair: labels.pair.value(effect.pair), side: sideLabel(effect.side) };
      money.fills.inc(l);
      money.filledBase.inc(l, Math.max(0, toMetricNumber(effect.quantity)));
      if (effect.price !== null) {
        money.filledQuote.inc(l, Math.max(0, toMetricNumber(effect.price.times(effect.quantity))));
      }
      return;
    }
    case 'rotated':
      // The first contractId (from null, at commit) is not a rotation.
      if (effect.from !== null) orders.rotations.inc({ pair: labels.pair.value(orderPair) });
      return;
    case 'terminal':
      if (effect.state === 'EXPIRED') orders.residualExpiries.inc({ pair: labels.pair.value(orderPair) });
      return;
    case 'alarm':
      orders.orderAlarms.inc({ reason: labels.reason.value(snake(effect.reason)) });
      return;
  }
}
