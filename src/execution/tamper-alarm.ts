/**
 * A refusal whose error scope is `tamper` (a `signing.submitUrl` outside the configured submit
 * origin: nothing was sent) raises the alarm of a tampered echo: the `echo-refused` event (the
 * `echo_refused_total` metric, LedgerMmEchoRefused) and the `echo-mismatch` execution alarm.
 * Returns whether it did.
 */
import { isTamperFailure, type VenueError } from '../venue/errors.js';
import type { ExecutionContext } from './execution-context.js';

/** See the module doc. */
export function alarmOnTamper(
  ctx: ExecutionContext,
  operation: 'place' | 'cancel',
  key: string,
  err: VenueError,
): boolean {
  if (!isTamperFailure(err)) return false;
  const detail = `${operation} refused before sending: ${err.message}`;
  ctx.emit({ type: 'echo-refused', operation, key, detail, at: ctx.now() });
  ctx.alarm('echo-mismatch', key, detail);
  return true;
}
