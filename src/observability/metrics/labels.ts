/**
 * Label values, kept bounded. Every label value that comes from outside this module (a pair, a
 * level, an error code, a token, a reason string) goes through a {@link LabelGuard}: a value
 * that is malformed, not in the allowed set, or new after the guard's cap is reported as
 * {@link OTHER}, and the overflow is counted, so a bug upstream can never blow up the number of
 * series Prometheus has to store.
 *
 * Vocabulary: sides are `buy`/`sell`, stages and outcomes are snake_case
 * (`cancel_prepare`, `never_committed`), error codes are the venue's UPPER_SNAKE codes.
 */
import type { Stage } from '../../execution/execution-events.js';
import { ENDPOINTS } from '../../venue/endpoints.js';

/** The value a guarded label takes when the real value is refused. */
export const OTHER = 'other';

/** Options of {@link LabelGuard}. */
export interface LabelGuardOptions {
  /** Most distinct values kept; later new values become {@link OTHER}. */
  readonly max: number;
  /** When set, exactly these values pass (pattern and cap are then not used). */
  readonly allowed?: Iterable<string>;
  /** Values must match this pattern (when there is no allowed set). */
  readonly pattern?: RegExp;
  /** Called once per refused value occurrence (metrics count it). */
  readonly onOverflow?: () => void;
}

/** Maps raw values to bounded label values. See the module doc. */
export class LabelGuard {
  private readonly seen = new Set<string>();
  private readonly allowed: ReadonlySet<string> | null;

  constructor(private readonly opts: LabelGuardOptions) {
    this.allowed = opts.allowed === undefined ? null : new Set(opts.allowed);
  }

  /** The label value for `raw`: `raw` itself, or {@link OTHER}. */
  value(raw: string): string {
    if (this.seen.has(raw)) return raw;
    const ok =
      this.allowed !== null
        ? this.allowed.has(raw)
        : (this.opts.pattern === undefined || this.opts.pattern.test(raw)) && this.seen.size < this.opts.max;
    if (!ok) {
      this.opts.onOverflow?.();
      return OTHER;
    }
    this.seen.add(raw);
    return raw;
  }
}

/** The guards of one metrics instance. */
export interface MetricLabels {
  readonly pair: LabelGuard;
  readonly level: LabelGuard;
  readonly code: LabelGuard;
  readonly token: LabelGuard;
  readonly reason: LabelGuard;
  readonly endpoint: LabelGuard;
  readonly status: LabelGuard;
  readonly poller: LabelGuard;
}

/** Bounds of {@link createLabelGuards}. */
export interface LabelBounds {
  /** The configured pairs; when given, no other pair label value is ever emitted. */
  readonly pairs?: readonly string[];
  /** Cap on distinct pairs when `pairs` is not given. Default 32. */
  readonly maxPairs?: number;
  /** Cap on distinct quote levels. Default 16. */
  readonly maxLevels?: number;
  /** Cap on distinct error codes. Default 64. */
  readonly maxCodes?: number;
  /** Cap on distinct tokens. Default 32. */
  readonly maxTokens?: number;
}

/** Builds the guards; `onOverflow` counts refused values. */
export function createLabelGuards(bounds: LabelBounds, onOverflow: () => void): MetricLabels {
  const pairs = bounds.pairs;
  return {
    pair: new LabelGuard({
      max: bounds.maxPairs ?? 32,
      pattern: /^[A-Za-z0-9._:@-]{1,48}\/[A-Za-z0-9._:@-]{1,48}$/,
      ...(pairs === undefined ? {} : { allowed: pairs }),
      onOverflow,
    }),
    level: new LabelGuard({ max: bounds.maxLevels ?? 16, pattern: /^(?:0|[1-9]\d?)$/, onOverflow }),
    code: new LabelGuard({ max: bounds.maxCodes ?? 64, pattern: /^[A-Z][A-Z0-9_]{0,47}$/, onOverflow }),
    token: new LabelGuard({ max: bounds.maxTokens ?? 32, pattern: /^[A-Za-z0-9._:@-]{1,48}$/, onOverflow }),
    reason: new LabelGuard({ max: 48, pattern: /^[a-z][a-z0-9_]{0,47}$/, onOverflow }),
    endpoint: new LabelGuard({
      max: 0,
      allowed: Object.values(ENDPOINTS).map((e) => e.label),
      onOverflow,
    }),
    status: new LabelGuard({ max: 40, pattern: /^(?:[1-5]\d\d|none)$/, onOverflow }),
    poller: new LabelGuard({ max: 48, pattern: /^[a-z][a-z0-9_]{0,31}$/, onOverflow }),
  };
}

/** `never-committed` → `never_committed`, `LOCAL-x` → `local_x`: the snake_case label form. */
export function snake(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9]+/g, '_');
}

/** `BUY` → `buy`, `SELL` → `sell`. */
export function sideLabel(side: string): 'buy' | 'sell' | typeof OTHER {
  if (side === 'BUY') return 'buy';
  if (side === 'SELL') return 'sell';
  return OTHER;
}

/** Every pipeline stage, in its label form, in pipeline order. */
export const STAGE_LABELS = [
  'prepare',
  'sign',
  'submit',
  'confirm',
  'cancel_prepare',
  'cancel_sign',
  'cancel_submit',
  'cancel_confirm',
] as const;
/** A stage label value. */
export type StageLabel = (typeof STAGE_LABELS)[number];

/** The stages that only sign locally (CPU): they have their own, much finer, histogram. */
export const SIGN_STAGES: readonly StageLabel[] = ['sign', 'cancel_sign'];

/** `cancel-prepare` → `cancel_prepare`. */
export function stageLabel(stage: Stage): StageLabel {
  return snake(stage) as StageLabel;
}

/**
 * A quote slot `<pair>:<side>:<level>`, or a registry slot `<pair>:<side>:<level>#<n>` (the
 * daemon gives each quote slot two registry slots for make-before-break), split; null when it
 * is neither.
 */
export function parseSlot(slot: string | null): { pair: string; side: string; level: string } | null {
  if (slot === null) return null;
  const m = /^(.+):(BUY|SELL):(\d+)(?:#\d+)?$/.exec(slot);
  return m === null ? null : { pair: m[1]!, side: m[2]!, level: m[3]! };
}
