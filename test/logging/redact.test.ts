import { describe, expect, it } from 'vitest';

import {
  REDACTED,
  apiKeyHandle,
  expandSecrets,
  isApiKey,
  isSensitiveName,
  sanitize,
  scrubText,
} from '../../src/logging/redact.js';

describe('apiKeyHandle', () => {
  it.each([
    ['mm_ak_demo01.S3cr3tPart', 'mm_ak_demo01'],
    ['mm_ak_a-b_c.x/y+z=', 'mm_ak_a-b_c'],
    ['mm_ak_p.sec.ret', 'mm_ak_p'],
  ])('%s has the handle %s', (key, handle) => {
    expect(isApiKey(key)).toBe(true);
    expect(apiKeyHandle(key)).toBe(handle);
  });

  it.each([['notakey'], ['mm_ak_demo01'], ['mm_ak_demo01.'], ['mm_ak_.secret'], [' mm_ak_a.b'], ['']])(
    '%j is not a key, and its handle echoes nothing',
    (bad) => {
      expect(isApiKey(bad)).toBe(false);
      expect(apiKeyHandle(bad)).toBe(REDACTED);
    },
  );
});

describe('scrubText', () => {
  it.each([
    ['Bearer mm_ak_demo01.S3cr3tPart', 'Bearer mm_ak_demo01'],
    ['{"k":"mm_ak_demo01.S3cr3tPart"}', '{"k":"mm_ak_demo01"}'],
    ['(mm_ak_demo01.S3cr3tPart), next', '(mm_ak_demo01), next'],
    ['two mm_ak_a.one and MM_AK_B.two', 'two mm_ak_a and MM_AK_B'],
    ['a handle alone: mm_ak_demo01. Fine.', 'a handle alone: mm_ak_demo01. Fine.'],
    ['nothing here', 'nothing here'],
  ])('%s -> %s', (input, output) => {
    expect(scrubText(input)).toBe(output);
  });

  it('replaces known secrets, including their JSON-escaped form', () => {
    const secrets = expandSecrets(['pass"word\\long']);
    expect(scrubText(JSON.stringify({ p: 'pass"word\\long' }), secrets)).toBe('{"p":"[Redacted]"}');
  });
});

describe('expandSecrets', () => {
  it('adds the secret part of an API key and ignores short strings', () => {
    expect(expandSecrets(['mm_ak_demo01.S3cr3tPart', 'abc', ''])).toEqual([
      'mm_ak_demo01.S3cr3tPart',
      'S3cr3tPart',
    ]);
  });
});

describe('isSensitiveName', () => {
  it.each([
    'apiKey',
    'api_key',
    'X-API-Key',
    'authorization',
    'signature',
    'submitToken',
    'privateKey',
    'seed',
  ])('%s is sensitive', (n) => expect(isSensitiveName(n)).toBe(true));
  it.each(['key', 'publicKey', 'pair', 'orderId', 'preparedTransactionHash'])('%s is not', (n) =>
    expect(isSensitiveName(n)).toBe(false),
  );
});

describe('sanitize', () => {
  it('passes primitives through', () => {
    expect(sanitize(1)).toBe(1);
    expect(sanitize(null)).toBe(null);
    expect(sanitize(undefined)).toBe(undefined);
    expect(sanitize(true)).toBe(true);
  });

  it('keeps null and undefined under sensitive names (nothing to hide)', () => {
    expect(sanitize({ signature: null, apiKey: undefined })).toEqual({ signature: null, apiKey: undefined });
  });

  it('truncates very deep objects', () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 20; i++) deep = { d: deep };
    expect(JSON.stringify(sanitize(deep))).toContain('[Truncated]');
  });

  it('survives a throwing getter', () => {
    const obj = {
      get boom(): string {
        throw new Error('no');
      },
    };
    expect(sanitize({ obj })).toEqual({ obj: '[Unserializable]' });
  });
});
