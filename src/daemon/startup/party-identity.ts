/**
 * One party of a firm that runs several (`firm.parties`), resolved: its name, its signing key and
 * API key (read from their files), and what differs from the single-party settings. Apart from
 * the firm's parts so that the daemon's options can name it without importing them.
 */
import type { Side } from '../../core/order-terms.js';
import type { Signer } from '../../signing/signer.js';

/** One party of the firm, resolved (keys read). */
export interface PartyIdentity {
  /** Unique; in logs, metrics (`party` label) and journal file names. */
  readonly name: string;
  readonly signer: Signer;
  /** Its API key (never logged). */
  readonly apiKey: string;
  /** Its venue URLs where they differ from `venue.baseUrl` / `venue.submitUrl`. */
  readonly baseUrl?: string;
  readonly submitUrl?: string;
  /** Its journal; default see the module doc. */
  readonly storePath?: string;
  /** Pairs and sides it serves (fixed assignments); absent: all. */
  readonly pairs?: readonly string[];
  readonly sides?: readonly Side[];
}
