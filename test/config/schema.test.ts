import { readFileSync } from 'node:fs';

import convict from 'convict';
import { describe, expect, it } from 'vitest';

import { type AnySection, type Leaf, defaultsOf, isLeaf, leaves } from '../../src/config/define.js';
import { FORMATS, checkFormat } from '../../src/config/formats.js';
import { DEFAULT_CONFIG_FILE } from '../../src/config/load.js';
import { CONFIG_FILES_ENV, configSchema, envBindings } from '../../src/config/schema.js';

const SCHEMA = configSchema as unknown as AnySection;

/** Walks the schema as plain data, independently of `leaves()`. */
function walk(node: unknown, path: string, out: Array<[string, Record<string, unknown>]>): void {
  if (typeof node !== 'object' || node === null) throw new Error(`${path}: not an object`);
  if ('default' in node) {
    out.push([path, node]);
    return;
  }
  const keys = Object.keys(node);
  if (keys.length === 0) throw new Error(`${path}: empty section`);
  for (const k of keys) walk((node as Record<string, unknown>)[k], path === '' ? k : `${path}.${k}`, out);
}

describe('the schema', () => {
  const all: Array<[string, Record<string, unknown>]> = [];
  walk(configSchema, '', all);

  it('has the keys the product needs', () => {
    const keys = all.map(([k]) => k);
    for (const k of [
      'venue.baseUrl',
      'venue.submitUrl',
      'venue.apiKey',
      'venue.apiKeyFile',
      'venue.authHeader',
      'venue.timeouts.prepareMs',
      'venue.timeouts.cancelPrepareMs',
      'venue.timeouts.submitMs',
      'venue.timeouts.balancesMs',
      'venue.timeouts.defaultMs',
      'venue.retry.maxAttempts',
      'venue.retry.baseDelayMs',
      'venue.retry.maxDelayMs',
      'venue.cursorParam',
      'venue.connections',
      'signing.keyFile',
      'signing.publicKeyFormat',
      'signing.allowInsecureKeyFile',
      'store.path',
      'metrics.port',
      'metrics.host',
      'log.level',
      'log.pretty',
      'pairs',
      'recovery.unknownOrders',
      'shutdown.cancelOrders',
      'shutdown.graceMs',
      'execution.cancelConcurrency',
    ]) {
      expect(keys).toContain(k);
    }
    expect(leaves(SCHEMA).map((e) => e.key)).toEqual(keys);
  });

  it.each(all)('%s has a doc, a format and a default', (_key, leaf) => {
    expect(typeof leaf['doc']).toBe('string');
    expect((leaf['doc'] as string).length).toBeGreaterThan(10);
    expect(leaf).toHaveProperty('format');
    const format = leaf['format'];
    if (typeof format === 'string') expect(FORMATS.has(format)).toBe(true);
    else expect(Array.isArray(format) && format.length > 0).toBe(true);
    expect(leaf).toHaveProperty('default');
    expect(leaf['default']).not.toBeUndefined();
    expect(leaf['default']).not.toBeNull();
  });

  it.each(all)('the default of %s passes its own format', (_key, leaf) => {
    const l = leaf as unknown as Leaf<unknown>;
    expect(() => checkFormat(l.format, l.default)).not.toThrow();
  });

  it('is accepted by convict, which sees the same keys', () => {
    const conf = convict(configSchema as unknown as convict.Schema<unknown>, { env: {}, args: [] });
    expect(() => conf.validate({ allowed: 'strict' })).not.toThrow();
    const fromConvict: string[] = [];
    const visit = (node: Record<string, unknown>, path: string): void => {
      const props = node['_cvtProperties'] as Record<string, Record<string, unknown>>;
      for (const [k, child] of Object.entries(props)) {
        const key = path === '' ? k : `${path}.${k}`;
        if ('_cvtProperties' in child) visit(child, key);
        else fromConvict.push(key);
      }
    };
    visit(conf.getSchema() as unknown as Record<string, unknown>, '');
    expect(fromConvict).toEqual(all.map(([k]) => k));
  });

  it('binds each environment variable to one key, all named LEDGER_MM_*', () => {
    const names = envBindings().map((b) => b.env);
    expect(new Set(names).size).toBe(names.length);
    expect(names).not.toContain(CONFIG_FILES_ENV);
    for (const n of names) expect(n).toMatch(/^LEDGER_MM_[A-Z_]+$/);
  });

  it("marks the API key and the hedge exchange's key and secret, and only them, as secrets", () => {
    const secret = leaves(SCHEMA)
      .filter((e) => e.leaf.sensitive === true)
      .map((e) => e.key);
    expect(secret).toEqual(['venue.apiKey', 'hedge.apiKey', 'hedge.apiSecret']);
  });
});

describe('config/default.json', () => {
  const file = JSON.parse(readFileSync(DEFAULT_CONFIG_FILE, 'utf8')) as unknown;

  it('holds exactly the schema defaults, without secrets', () => {
    expect(file).toEqual(defaultsOf(SCHEMA, true));
  });

  it('has a section for every schema section', () => {
    for (const [k, node] of Object.entries(SCHEMA)) {
      expect(file).toHaveProperty(k);
      if (!isLeaf(node)) expect(typeof (file as Record<string, unknown>)[k]).toBe('object');
    }
  });
});
