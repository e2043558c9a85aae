/**
 * The interface of a pair's reference price as the market model steps it: a modelled walk (plain,
 * or computed ahead for informed takers) or a recorded series (replay). Its own file so that the
 * sources and the factory that picks one (`reference-source.ts`) do not import each other.
 */
import type { Dec } from '../../core/decimal.js';

/** A pair's reference price as the market model drives it. */
export interface ReferenceSource {
  /** The current reference as a float (for the model's maths). */
  readonly price: number;
  /** The current reference rounded to the pair's tick, for the port. */
  readonly decimal: Dec;
  /** Steps taken so far. */
  readonly steps: number;
  /** Advances by `dtMs`; returns the new price. */
  step(dtMs: number): number;
  /** The price `ms` from now, when the source can see it; null when it cannot. */
  ahead(ms: number): number | null;
}
