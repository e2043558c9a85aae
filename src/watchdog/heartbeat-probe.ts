/**
 * Reading the daemon's heartbeat from the watchdog. A probe answers one question: did this read
 * show the daemon alive? The watchdog times the answers on its own clock, so the two hosts'
 * clocks never have to agree.
 */
import fs from 'node:fs';
import { systemClock, timeoutSignal, type Clock } from '../core/clock.js';
import type { HeartbeatFileBeat } from '../observability/http/heartbeat.js';

/** One read of the heartbeat. */
export interface ProbeResult {
  readonly alive: boolean;
  /** What was seen, for the log (`200`, `503: the quote cycle has not run for 20.0 s`, `ECONNREFUSED`). */
  readonly detail: string;
}

/** A heartbeat read; must honour `signal` and never reject. */
export type HeartbeatProbe = (signal: AbortSignal) => Promise<ProbeResult>;

/**
 * GET `url` (the daemon's `/healthz`): a 200, however slow within `timeoutMs`, is a heartbeat; a
 * 503 (the daemon says its quote cycle stalled), any other status, a refused connection or no
 * answer in time is not. The timeout runs on `clock`.
 */
export function httpProbe(url: string, timeoutMs: number, clock: Clock = systemClock): HeartbeatProbe {
  return async (signal) => {
    const bound = timeoutSignal(clock, timeoutMs, signal);
    const ended = (): ProbeResult => ({ alive: false, detail: describe(bound.signal.reason, timeoutMs) });
    if (bound.signal.aborted) {
      bound.dispose();
      return ended();
    }
    // The abort also settles the read itself: it must come back within timeoutMs even if the
    // abort does not reach the request, or the watchdog's reads stall behind a stopped daemon's
    // socket (seen with AbortSignal.any([signal, AbortSignal.timeout(ms)]): a read hung for 10 s
    // past its 1 s).
    const aborted = new Promise<ProbeResult>((resolve) =>
      bound.signal.addEventListener('abort', () => resolve(ended()), { once: true }),
    );
    const read = async (): Promise<ProbeResult> => {
      try {
        const res = await fetch(url, { signal: bound.signal, headers: { accept: 'application/json' } });
        const text = await res.text();
        if (res.status === 200) return { alive: true, detail: '200' };
        return { alive: false, detail: `${res.status}: ${reasonsOf(text)}` };
      } catch (err) {
        return { alive: false, detail: describe(err, timeoutMs) };
      }
    };
    try {
      return await Promise.race([read(), aborted]);
    } finally {
      bound.dispose();
    }
  };
}

function reasonsOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { reasons?: unknown };
    if (Array.isArray(parsed.reasons)) return parsed.reasons.map(String).join('; ');
  } catch {
    // not JSON: fall through
  }
  return body.slice(0, 200);
}

function describe(err: unknown, timeoutMs: number): string {
  if (err instanceof Error) {
    if (err.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
    const cause = (err as { cause?: { code?: unknown } }).cause;
    if (cause !== undefined && typeof cause.code === 'string') return cause.code;
    return err.message;
  }
  return String(err);
}

/**
 * Watches the heartbeat file the daemon rewrites every second (`watchdog.heartbeatFile`): a read
 * is a heartbeat when the beat's `seq` changed since the previous read (or its pid did: a new
 * daemon) and it says `alive`. An unchanged, missing or unreadable file, or a beat marked not
 * alive, is not. The first read only records the beat (a file left by a dead daemon must not
 * count).
 */
export function fileProbe(file: string): HeartbeatProbe {
  let last: { pid: number; seq: number } | null = null;
  return async () => {
    let beat: HeartbeatFileBeat;
    try {
      beat = JSON.parse(await fs.promises.readFile(file, 'utf8')) as HeartbeatFileBeat;
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      return { alive: false, detail: typeof code === 'string' ? code : 'unreadable heartbeat file' };
    }
    const previous = last;
    last = { pid: beat.pid, seq: beat.seq };
    if (previous === null) return { alive: false, detail: `first read (seq ${beat.seq})` };
    if (previous.pid === beat.pid && previous.seq === beat.seq) {
      return { alive: false, detail: `unchanged since the last read (seq ${beat.seq})` };
    }
    return beat.alive
      ? { alive: true, detail: `seq ${beat.seq}` }
      : { alive: false, detail: `seq ${beat.seq}: daemon ${beat.phase}, not alive` };
  };
}
