import { describe, expect, it } from 'vitest';
import { logDaemonEvent, type LogContext } from '../../src/daemon/reporting/daemon-log.js';
import type { DaemonEvent } from '../../src/daemon/daemon-types.js';
import { createLogger } from '../../src/logging/logger.js';

/** What the operator reads when clear signing refuses or cannot verify: one line each, levelled. */

const CTX: LogContext = {
  position: () => undefined,
  instruments: () => ({ base: 'BTC', quote: 'USDC' }),
  order: () => undefined,
};

function logged(event: DaemonEvent): { level: number; msg: string; detail?: string }[] {
  const lines: string[] = [];
  const log = createLogger({ level: 'debug', destination: { write: (l: string) => lines.push(l) } });
  logDaemonEvent(log, CTX, event);
  return lines.map((l) => JSON.parse(l) as { level: number; msg: string; detail?: string });
}

describe('clear signing in the daemon log', () => {
  it('a refusal is an error line naming what differed', () => {
    const detail = 'prepared transaction: party intruder::1220ee submits (metadata.submitterInfo.actAs)';
    const lines = logged({ type: 'alarm', reason: 'echo-mismatch', key: 'k-1', detail, at: 0 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, detail });
    expect(lines[0]!.msg).toBe(`alarm: echo-mismatch: ${detail}`);
  });

  it('an unverified hash signed under if-present is a warning saying how to refuse instead', () => {
    const lines = logged({
      type: 'signing-unverified',
      operation: 'place',
      key: 'k-2',
      reason: 'absent',
      detail: 'no prepared transaction in the envelope (prepared.preparedTransaction)',
      at: 0,
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.level).toBe(40);
    expect(lines[0]!.msg).toContain('not verified (absent: no prepared transaction in the envelope');
    expect(lines[0]!.msg).toContain('signing.verifyPrepared=required');
  });
});
