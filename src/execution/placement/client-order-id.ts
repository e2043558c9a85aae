/**
 * The clientOrderId, the venue's idempotency key for a placement: {@link ClientOrderIdFactory}
 * mints `<prefix><time36>-<seq36>-<entropy>` ids under the account's prefix, within the venue's
 * 120-character cap, unique in the process and across restarts. The placement pipeline mints one
 * per new intent and reuses it for every re-prepare, so a retried prepare never doubles an order.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../core/clock.js';

/** The venue's cap on a clientOrderId (venue-api.md section 8). */
export const MAX_CLIENT_ORDER_ID_LENGTH = 120;

/** Characters allowed in the part we generate (the prefix is the venue's). */
const SAFE = /^[A-Za-z0-9_-]*$/;

/** Options of {@link ClientOrderIdFactory}. */
export interface ClientOrderIdOptions {
  /** The account's `clientOrderIdPrefix` (GET /account), e.g. `acme-`. */
  readonly prefix: string;
  readonly clock: Pick<Clock, 'now'>;
  /** Entropy source, `[A-Za-z0-9_-]` only; default 8 random hex characters. */
  readonly entropy?: () => string;
}

/**
 * Mints clientOrderIds `<prefix><time36>-<seq36>-<entropy>`: the venue's idempotency key for a
 * placement. Unique within the process by the sequence, across restarts by time and entropy, so
 * a fresh intent never collides with one the journal holds from a previous run.
 *
 * A new id is minted only for a NEW intent. Re-prepares of the same intent (410, prepare retries)
 * reuse its id; that is the pipeline's rule, not this factory's.
 */
export class ClientOrderIdFactory {
  readonly prefix: string;
  private readonly clock: Pick<Clock, 'now'>;
  private readonly entropy: () => string;
  private seq = 0;

  /** Throws RangeError on an empty or unusable prefix. */
  constructor(options: ClientOrderIdOptions) {
    const { prefix } = options;
    if (prefix.length === 0 || /\s/.test(prefix))
      throw new RangeError('clientOrderIdPrefix is empty or has spaces');
    // Leave room for time (≤ 9), sequence and entropy well inside the 120-character cap.
    if (prefix.length > MAX_CLIENT_ORDER_ID_LENGTH - 40) {
      throw new RangeError(
        `clientOrderIdPrefix is longer than ${MAX_CLIENT_ORDER_ID_LENGTH - 40} characters`,
      );
    }
    this.prefix = prefix;
    this.clock = options.clock;
    this.entropy = options.entropy ?? (() => randomBytes(4).toString('hex'));
  }

  /** A fresh clientOrderId. Throws RangeError if the entropy source misbehaves. */
  next(): string {
    this.seq += 1;
    const noise = this.entropy();
    if (!SAFE.test(noise) || noise.length > 24)
      throw new RangeError('clientOrderId entropy must be [A-Za-z0-9_-]{0,24}');
    const id = `${this.prefix}${Math.max(0, Math.floor(this.clock.now())).toString(36)}-${this.seq.toString(36)}-${noise}`;
    if (id.length > MAX_CLIENT_ORDER_ID_LENGTH)
      throw new RangeError(`clientOrderId longer than ${MAX_CLIENT_ORDER_ID_LENGTH}`);
    return id;
  }

  /** True when `id` carries this factory's prefix and fits the venue's cap. */
  owns(id: string): boolean {
    return id.startsWith(this.prefix) && id.length <= MAX_CLIENT_ORDER_ID_LENGTH;
  }
}
