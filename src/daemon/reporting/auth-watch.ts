/**
 * The API key's state as the daemon tells it: one line per change, never one per poll. When the
 * venue starts refusing the key (revoked, expired, unknown, auth not configured) the daemon raises
 * one `api-key-refused` alarm (an ERROR line and `ledger_mm_execution_alarms_total`); `/readyz`
 * names it through the market state; the authenticated pollers back off (`failureBackoff`); when
 * the key works again (a reinstated key, or a rotated key file re-read on SIGHUP) one INFO line
 * says quoting resumes. Fed with every daemon event; reads the market state's flag.
 */
import type { Logger } from '../../logging/logger.js';
import { VenueError, isCredentialFailure } from '../../venue/errors.js';
import type { DaemonEvent } from '../daemon-types.js';

/** See the module doc. */
export class AuthWatch {
  private failing = false;
  private lastCode: string | null = null;

  constructor(
    private readonly o: {
      readonly logger: Logger;
      readonly authFailing: () => boolean;
      readonly keyHandle: () => string;
      readonly emit: (event: DaemonEvent) => void;
    },
  ) {}

  /** True while the key is refused. */
  get refused(): boolean {
    return this.failing;
  }

  /** Looks at one event (a poll failure names the code) and at the flag; reports a change. */
  observe(event: DaemonEvent, now: number): void {
    if (
      (event.type === 'poll-failed' || event.type === 'market-poll-failed') &&
      event.error instanceof VenueError &&
      isCredentialFailure(event.error)
    ) {
      this.lastCode = event.error.code;
    }
    const failing = this.o.authFailing();
    if (failing === this.failing) return;
    this.failing = failing;
    if (failing) {
      this.o.emit({
        type: 'alarm',
        reason: 'api-key-refused',
        key: null,
        detail:
          `the venue refuses the API key ${this.o.keyHandle()}` +
          `${this.lastCode === null ? '' : ` (${this.lastCode})`}: nothing is placed or read; ` +
          'the pollers back off and quoting resumes by itself once the key works ' +
          '(write the reissued key to the key file and send SIGHUP)',
        at: now,
      });
    } else {
      this.lastCode = null;
      this.o.logger.info(
        { key: this.o.keyHandle() },
        `the API key ${this.o.keyHandle()} works again: quoting resumes`,
      );
    }
  }

  /** True when a poll failure is the refused key, already told by the alarm: not logged again. */
  static isKeyRefusal(error: unknown): boolean {
    return isCredentialFailure(error);
  }
}
