import { describe, expect, it } from 'vitest';
import fc from 'fast-check';

import { Dec } from '../../src/core/decimal.js';
import { type LogDestination, createLogger } from '../../src/logging/logger.js';
import { type CreateLoggerOptions } from '../../src/logging/logger.js';

const SECRET = 'S3cr3tPartNeverLogged';
const API_KEY = `mm_ak_demo01.${SECRET}`;
const HANDLE = 'mm_ak_demo01';
const SIGNATURE = 'c2lnbmF0dXJlLWJhc2U2NC1ub3QtZm9yLWxvZ3M=';
const SUBMIT_TOKEN = 'submit-token-one-time-7f3a9c';
const PRIVATE_KEY = Uint8Array.from({ length: 32 }, (_, i) => 200 + (i % 50));
const PRIVATE_KEY_HEX = Buffer.from(PRIVATE_KEY).toString('hex');
const PRIVATE_KEY_B64 = Buffer.from(PRIVATE_KEY).toString('base64');

/** Everything that must never appear in output. */
const FORBIDDEN = [SECRET, SIGNATURE, SUBMIT_TOKEN, PRIVATE_KEY_HEX, PRIVATE_KEY_B64, '"data":[', '"0":200'];

function memory(): LogDestination & { lines: string[]; text: () => string } {
  const lines: string[] = [];
  return { lines, write: (line) => lines.push(line), text: () => lines.join('') };
}

function setup(over: Partial<CreateLoggerOptions> = {}) {
  const out = memory();
  const log = createLogger({ level: 'trace', destination: out, ...over });
  return { out, log };
}

function assertClean(text: string): void {
  for (const f of FORBIDDEN) expect(text).not.toContain(f);
}

function records(out: { lines: string[] }): Array<Record<string, unknown>> {
  return out.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('createLogger', () => {
  it('writes one JSON line per call, synchronously', () => {
    const { out, log } = setup({ level: 'info', name: 'ledger-mm' });
    log.info({ pair: 'BTC/USDC' }, 'hello');
    expect(out.lines).toHaveLength(1);
    expect(out.lines[0]?.endsWith('\n')).toBe(true);
    expect(records(out)[0]).toMatchObject({ level: 30, name: 'ledger-mm', pair: 'BTC/USDC', msg: 'hello' });
    expect(typeof records(out)[0]?.['time']).toBe('string');
  });

  it('honours the level, including silent', () => {
    const { out, log } = setup({ level: 'warn' });
    log.info('no');
    log.debug('no');
    log.warn('yes');
    expect(records(out).map((r) => r['msg'])).toEqual(['yes']);
    const silent = setup({ level: 'silent' });
    silent.log.fatal('no');
    expect(silent.out.lines).toEqual([]);
  });

  it('writes pretty lines synchronously when asked, still scrubbed', () => {
    const { out, log } = setup({ level: 'info', pretty: true, colorize: false });
    log.info({ apiKey: API_KEY, handle: API_KEY, signature: SIGNATURE }, `using ${API_KEY}`);
    expect(out.lines).toHaveLength(1);
    const text = out.text();
    expect(text).toContain('INFO');
    expect(text).toContain(`using ${HANDLE}`);
    expect(text).not.toMatch(/^\{/);
    assertClean(text);
  });

  it('creates a stdout logger by default', () => {
    const log = createLogger({ level: 'silent' });
    expect(log.level).toBe('silent');
  });
});

describe('redaction', () => {
  it('cuts an API key to its handle in the message and in values', () => {
    const { out, log } = setup();
    log.info({ account: { handle: API_KEY }, list: [`k=${API_KEY}`] }, `authenticating with ${API_KEY}`);
    const [r] = records(out);
    expect(r?.['msg']).toBe(`authenticating with ${HANDLE}`);
    expect(r?.['account']).toEqual({ handle: HANDLE });
    expect(r?.['list']).toEqual([`k=${HANDLE}`]);
    assertClean(out.text());
    expect(out.text()).toContain(HANDLE);
  });

  it('scrubs printf-style arguments', () => {
    const { out, log } = setup();
    log.info('key %s and %o and %j', API_KEY, { k: API_KEY }, { submitToken: SUBMIT_TOKEN });
    assertClean(out.text());
    expect(records(out)[0]?.['msg']).toContain(HANDLE);
  });

  it('redacts known fields at the top level and nested', () => {
    const { out, log } = setup();
    log.info(
      {
        apiKey: API_KEY,
        signature: SIGNATURE,
        submitToken: SUBMIT_TOKEN,
        headers: {
          authorization: `Bearer ${API_KEY}`,
          'x-api-key': API_KEY,
          'content-type': 'application/json',
        },
        signing: { submitToken: SUBMIT_TOKEN, preparedTransactionHash: 'aGFzaA==' },
        body: { signature: SIGNATURE, publicKey: 'cHVibGlj', prepared: { hashingSchemeVersion: 'V2' } },
        request: { headers: { Authorization: `Bearer ${API_KEY}`, 'X-API-Key': API_KEY } },
        deep: { a: { b: { c: { d: { signature: SIGNATURE, submit_token: SUBMIT_TOKEN } } } } },
        privateKey: PRIVATE_KEY_HEX,
        secretKey: PRIVATE_KEY_B64,
        seed: PRIVATE_KEY_HEX,
      },
      'submit',
    );
    const [r] = records(out);
    expect(r).toMatchObject({
      apiKey: '[Redacted]',
      signature: '[Redacted]',
      submitToken: '[Redacted]',
      headers: { authorization: '[Redacted]', 'x-api-key': '[Redacted]', 'content-type': 'application/json' },
      signing: { submitToken: '[Redacted]', preparedTransactionHash: 'aGFzaA==' },
      body: { signature: '[Redacted]', publicKey: 'cHVibGlj', prepared: { hashingSchemeVersion: 'V2' } },
      request: { headers: { Authorization: '[Redacted]', 'X-API-Key': '[Redacted]' } },
      deep: { a: { b: { c: { d: { signature: '[Redacted]', submit_token: '[Redacted]' } } } } },
      privateKey: '[Redacted]',
      secretKey: '[Redacted]',
      seed: '[Redacted]',
    });
    assertClean(out.text());
  });

  it('redacts bytes under any name', () => {
    const { out, log } = setup();
    log.info({
      key: PRIVATE_KEY,
      secret: Buffer.from(PRIVATE_KEY),
      material: { bytes: PRIVATE_KEY.buffer, view: new DataView(PRIVATE_KEY.buffer), list: [PRIVATE_KEY] },
    });
    const [r] = records(out);
    expect(r).toMatchObject({
      key: '[Redacted]',
      secret: '[Redacted]',
      material: { bytes: '[Redacted]', view: '[Redacted]', list: ['[Redacted]'] },
    });
    assertClean(out.text());
  });

  it('scrubs errors: message, stack, causes, own properties; keeps their type', () => {
    class VenueishError extends Error {
      readonly headers = { authorization: `Bearer ${API_KEY}` };
      readonly detail = `sent ${API_KEY}`;
    }
    const cause = new Error(`cause with ${API_KEY}`);
    const err = new VenueishError(`request with ${API_KEY} failed`, { cause });
    const { out, log } = setup();
    log.error(err);
    log.error({ err }, 'with a message');
    log.warn({ nested: { failure: err, agg: new AggregateError([new Error(API_KEY)], 'many') } });
    assertClean(out.text());
    const [first, second, third] = records(out);
    expect(first?.['msg']).toBe(`request with ${HANDLE} failed`);
    expect(first?.['err']).toMatchObject({
      type: 'VenueishError',
      message: expect.stringContaining(`request with ${HANDLE} failed`) as unknown,
      stack: expect.stringContaining('caused by:') as unknown,
      headers: { authorization: '[Redacted]' },
      detail: `sent ${HANDLE}`,
    });
    expect(second?.['msg']).toBe('with a message');
    expect(JSON.stringify(third)).toContain(HANDLE);
    // The caller's error is untouched.
    expect(err.message).toContain(API_KEY);
    expect(err.headers.authorization).toContain(API_KEY);
  });

  it('scrubs child bindings', () => {
    const { out, log } = setup();
    const child = log.child({ apiKey: API_KEY, account: API_KEY, signing: { submitToken: SUBMIT_TOKEN } });
    child.info('from child');
    child.child({ signature: SIGNATURE }).info('grandchild');
    assertClean(out.text());
    const [r] = records(out);
    expect(r).toMatchObject({
      apiKey: '[Redacted]',
      account: HANDLE,
      signing: { submitToken: '[Redacted]' },
    });
  });

  it('scrubs the finished line too, for text added after the call (a message prefix)', () => {
    const { out, log } = setup({ secrets: [SUBMIT_TOKEN] });
    log.child({}, { msgPrefix: `[${API_KEY} ${SUBMIT_TOKEN}] ` }).info('prefixed');
    assertClean(out.text());
    expect(records(out)[0]?.['msg']).toBe(`[${HANDLE} [Redacted]] prefixed`);
  });

  it('replaces configured secrets wherever they occur, whole or just the secret part', () => {
    const { out, log } = setup({ secrets: [API_KEY, 'short'] });
    log.info({ fragment: `...${SECRET}...`, reversed: SECRET }, `bare secret ${SECRET}`);
    log.info('short stays');
    assertClean(out.text());
    expect(records(out)[0]).toMatchObject({ fragment: '...[Redacted]...', msg: 'bare secret [Redacted]' });
    expect(records(out)[1]?.['msg']).toBe('short stays');
  });

  it('does not mutate what it is given', () => {
    const { log } = setup();
    const obj = { headers: { authorization: `Bearer ${API_KEY}` }, key: PRIVATE_KEY, note: API_KEY };
    log.info(obj);
    expect(obj.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(obj.key).toBe(PRIVATE_KEY);
    expect(obj.note).toBe(API_KEY);
  });

  it('logs decimals, dates, maps, sets and cycles without throwing', () => {
    const { out, log } = setup();
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic['self'] = cyclic;
    const shared = { v: 1 };
    log.info({
      price: new Dec('1234.5600'),
      at: new Date('2026-01-02T03:04:05.000Z'),
      map: new Map<string, unknown>([
        ['a', API_KEY],
        ['signature', SIGNATURE],
      ]),
      set: new Set([API_KEY]),
      cyclic,
      twice: [shared, shared],
    });
    const [r] = records(out);
    expect(r).toMatchObject({
      price: '1234.56',
      at: '2026-01-02T03:04:05.000Z',
      map: { a: HANDLE, signature: '[Redacted]' },
      set: [HANDLE],
      cyclic: { name: 'loop', self: '[Circular]' },
      twice: [{ v: 1 }, { v: 1 }],
    });
    assertClean(out.text());
  });

  it('never lets an API key through, wherever it is put (property)', () => {
    const prefix = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/);
    const secret = fc.stringMatching(/^[!#$%&*+\-./0-9:=?@A-Z^_a-z|~]{16,40}$/);
    const filler = fc.string({ maxLength: 20 });
    fc.assert(
      fc.property(prefix, secret, filler, filler, fc.nat(3), (p, s, before, after, where) => {
        const key = `mm_ak_${p}.${s}`;
        const text = `${before}${key} ${after}`;
        const { out, log } = setup();
        if (where === 0) log.info(text);
        else if (where === 1) log.info({ a: [{ b: text }] });
        else if (where === 2) log.error(new Error(text));
        else log.child({ ctx: text }).info('x');
        const line = out.text();
        // No part of the secret follows the handle, and the secret appears nowhere.
        return !line.includes(s) && !line.includes(`mm_ak_${p}.`) && line.includes(`mm_ak_${p}`);
      }),
      { numRuns: 300 },
    );
  });
});
