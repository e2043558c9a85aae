/**
 * What `cancel-all` prints: the resting orders (with what the journal knows of them), each
 * cancel's result in the operator's words, and the count of each result.
 */
import { formatTable } from '../../core/text-table.js';
import type { CancelOutcome } from '../../execution/execution-events.js';
import type { Order } from '../../venue/schemas.js';
import type { CommandIo } from '../command.js';
import { describeJournalRead, type JournalRead } from './journal-reader.js';
import { venueOrderRow, venueOrderTable } from './order-rows.js';

/** `1 order`, `2 orders`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** How one order's cancel ended, as the report says it. */
export type CancelResult = 'cancelled' | 'filled' | 'already gone' | 'stranded' | 'failed';

/** One line of the report. */
export interface ReportLine {
  readonly order: Order;
  readonly result: CancelResult;
  readonly detail: string;
  readonly filled: string;
}

/**
 * The report's verdict on one cancel outcome. `submitted`: this command sent a cancel submission
 * for the order, so a CANCELLED order is its doing; otherwise the order had gone already.
 */
export function cancelResult(
  outcome: CancelOutcome,
  submitted: boolean,
): { result: CancelResult; detail: string } {
  switch (outcome.kind) {
    case 'cancelled':
      return submitted
        ? { result: 'cancelled', detail: '' }
        : { result: 'already gone', detail: 'cancelled before this command' };
    case 'filled':
      return { result: 'filled', detail: 'filled before the cancel landed' };
    case 'ended':
      return { result: 'already gone', detail: `ended ${outcome.state}` };
    case 'stranded':
      return {
        result: 'stranded',
        detail: "its funds were withdrawn; the venue's operator must clear it",
      };
    case 'deferred':
      return { result: 'failed', detail: `not resting locally yet (${outcome.state})` };
    case 'echo-mismatch':
      return { result: 'failed', detail: `the prepared cancel differed from the request: ${outcome.detail}` };
    case 'failed':
      return { result: 'failed', detail: `${outcome.code} after ${plural(outcome.attempts, 'attempt')}` };
    case 'aborted':
      return { result: 'failed', detail: `aborted (${outcome.reason})` };
    case 'unknown-order':
      return { result: 'failed', detail: 'not tracked by the journal' };
  }
}

/** A title and the table of `orders`, with what the journal knows of each. */
export function printResting(
  io: CommandIo,
  title: string,
  orders: readonly Order[],
  read: JournalRead,
): void {
  io.stdout(`${title}; ${describeJournalRead(read)}\n`);
  if (orders.length > 0) io.stdout(`\n${venueOrderTable(orders.map((o) => venueOrderRow(o, read)))}`);
}

/** The report's table, one line per order, and the count of each result. */
export function printReport(io: CommandIo, lines: readonly ReportLine[]): void {
  if (lines.length === 0) return;
  io.stdout(
    `\n${formatTable(
      ['RESULT', 'ORDER ID', 'PAIR', 'SIDE', 'PRICE', 'QTY', 'FILLED', 'DETAIL'],
      lines.map((l) => [
        l.result,
        l.order.orderId,
        l.order.pair,
        l.order.side,
        l.order.price ?? '-',
        l.order.quantity,
        l.filled,
        l.detail,
      ]),
    )}`,
  );
  const counts = new Map<CancelResult, number>();
  for (const l of lines) counts.set(l.result, (counts.get(l.result) ?? 0) + 1);
  io.stdout(`\n${[...counts].map(([r, n]) => `${n} ${r}`).join(', ')}\n`);
}
