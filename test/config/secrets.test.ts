import { chmodSync } from 'node:fs';
import { resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

import { ConfigError, type ConfigIssue, formatConfigError } from '../../src/config/errors.js';
import { loadConfig, loadConfigOrExit, maskConfig, resolveApiKey } from '../../src/config/load.js';
import { API_KEY, HANDLE, SECRET, opts, useTmpDir, writeFile } from './support/config-setup.js';

const tmp = useTmpDir();

function failure(fn: () => unknown): { issues: readonly ConfigIssue[]; report: string } {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    const err = e as ConfigError;
    return { issues: err.issues, report: formatConfigError(err) + err.message };
  }
  throw new Error('expected a ConfigError');
}

describe('the API key in a config file', () => {
  it.each([
    ['a --config file', (f: string) => ({ configFiles: [f] })],
    ['a LEDGER_MM_CONFIG file', (f: string) => ({ env: { LEDGER_MM_CONFIG: f } })],
  ])('is refused in %s, naming the file and the key, without the key', (_name, where) => {
    const cwd = tmp();
    const file = writeFile(cwd, 'conf.json', { venue: { apiKey: API_KEY } });
    const { issues, report } = failure(() => loadConfig(opts(cwd, where(file))));
    expect(issues).toEqual([
      {
        key: 'venue.apiKey',
        value: '[redacted]',
        source: file,
        reason:
          'a secret is never read from a config file; set LEDGER_MM_API_KEY in the environment or point venue.apiKeyFile at a file holding the key',
      },
    ]);
    expect(report).toContain(file);
    expect(report).toContain('venue.apiKey');
    expect(report).not.toContain(SECRET);
    expect(report).not.toContain(HANDLE);
  });

  it('is refused even when the environment also sets it', () => {
    const cwd = tmp();
    const file = writeFile(cwd, 'conf.json', { venue: { apiKey: 'anything at all' } });
    const { issues } = failure(() =>
      loadConfig(opts(cwd, { configFiles: [file], env: { LEDGER_MM_API_KEY: API_KEY } })),
    );
    expect(issues).toMatchObject([{ key: 'venue.apiKey', source: file }]);
  });

  it('is refused when empty', () => {
    const cwd = tmp();
    const file = writeFile(cwd, 'conf.json', { venue: { apiKey: '' } });
    expect(failure(() => loadConfig(opts(cwd, { configFiles: [file] }))).issues).toHaveLength(1);
  });

  it('is refused with exit code 2 before anything else happens', () => {
    const cwd = tmp();
    const file = writeFile(cwd, 'conf.json', { venue: { apiKey: API_KEY } });
    const err: string[] = [];
    const result = loadConfigOrExit(opts(cwd, { configFiles: [file] }), { stderr: (t) => err.push(t) });
    expect(result).toMatchObject({ ok: false, exitCode: 2 });
    expect(err.join('')).not.toContain(SECRET);
  });
});

describe('resolving the API key', () => {
  it('reads venue.apiKeyFile, trimmed, relative to cwd', () => {
    const cwd = tmp();
    writeFile(cwd, 'keys/api', `\n  ${API_KEY}  \n`);
    const conf = writeFile(cwd, 'conf.json', { venue: { apiKeyFile: 'keys/api' } });
    const config = loadConfig(opts(cwd, { configFiles: [conf] }));
    expect(config.venue.apiKey).toBe(API_KEY);
    expect(config.venue.apiKeyFile).toBe(resolve(cwd, 'keys/api'));
  });

  it('prefers LEDGER_MM_API_KEY over the file', () => {
    const cwd = tmp();
    writeFile(cwd, 'keys/api', 'mm_ak_other.FromTheFileSecret');
    const config = loadConfig(
      opts(cwd, { env: { LEDGER_MM_API_KEY: API_KEY, LEDGER_MM_API_KEY_FILE: 'keys/api' } }),
    );
    expect(config.venue.apiKey).toBe(API_KEY);
  });

  it('falls back to the file when LEDGER_MM_API_KEY is empty', () => {
    const cwd = tmp();
    writeFile(cwd, 'keys/api', API_KEY);
    const config = loadConfig(
      opts(cwd, { env: { LEDGER_MM_API_KEY: '', LEDGER_MM_API_KEY_FILE: 'keys/api' } }),
    );
    expect(config.venue.apiKey).toBe(API_KEY);
  });

  it('is empty when neither is configured', () => {
    expect(loadConfig(opts(tmp())).venue.apiKey).toBe('');
  });

  it('refuses a malformed key from the environment without echoing it', () => {
    const cwd = tmp();
    const bad = `notakey-${SECRET}`;
    const { issues, report } = failure(() => loadConfig(opts(cwd, { env: { LEDGER_MM_API_KEY: bad } })));
    expect(issues).toEqual([
      {
        key: 'venue.apiKey',
        value: '[redacted]',
        source: 'env LEDGER_MM_API_KEY',
        reason: 'must be an API key of the form mm_ak_<prefix>.<secret>',
      },
    ]);
    expect(report).not.toContain(SECRET);
  });

  it.each([
    ['no secret part', 'mm_ak_demo01.'],
    ['no prefix', `mm_ak_.${SECRET}`],
    ['a space inside', `mm_ak_demo01.${SECRET} x`],
    ['a quote inside', `mm_ak_demo01.${SECRET}"x`],
  ])('refuses a key with %s', (_name, bad) => {
    const { report } = failure(() => loadConfig(opts(tmp(), { env: { LEDGER_MM_API_KEY: bad } })));
    expect(report).toContain('venue.apiKey = [redacted]');
    expect(report).not.toContain(SECRET);
  });

  it('refuses a key file that does not hold a key, without echoing its contents', () => {
    const cwd = tmp();
    const path = writeFile(cwd, 'keys/api', `password=${SECRET}`);
    const { issues, report } = failure(() =>
      loadConfig(opts(cwd, { env: { LEDGER_MM_API_KEY_FILE: path } })),
    );
    expect(issues).toMatchObject([
      { key: 'venue.apiKeyFile', value: JSON.stringify(path), source: 'env LEDGER_MM_API_KEY_FILE' },
    ]);
    expect(issues[0]?.reason).toMatch(/mm_ak_<prefix>\.<secret>/);
    expect(report).not.toContain(SECRET);
  });

  it('refuses a missing key file', () => {
    const cwd = tmp();
    const conf = writeFile(cwd, 'conf.json', { venue: { apiKeyFile: 'nope' } });
    const { issues } = failure(() => loadConfig(opts(cwd, { configFiles: [conf] })));
    expect(issues).toEqual([
      {
        key: 'venue.apiKeyFile',
        value: '"nope"',
        source: conf,
        reason: 'cannot read the API key file: no such file',
      },
    ]);
  });

  it('refuses an empty key file', () => {
    const cwd = tmp();
    writeFile(cwd, 'keys/api', ' \n');
    const { issues } = failure(() => loadConfig(opts(cwd, { env: { LEDGER_MM_API_KEY_FILE: 'keys/api' } })));
    expect(issues).toMatchObject([{ key: 'venue.apiKeyFile', reason: 'the API key file is empty' }]);
  });

  it.skipIf(process.getuid?.() === 0)('refuses an unreadable key file', () => {
    const cwd = tmp();
    const path = writeFile(cwd, 'keys/api', API_KEY);
    chmodSync(path, 0o000);
    const { issues } = failure(() => loadConfig(opts(cwd, { env: { LEDGER_MM_API_KEY_FILE: path } })));
    expect(issues[0]?.reason).toBe('cannot read the API key file: permission denied');
  });

  it('resolveApiKey applies the same rules', () => {
    const cwd = tmp();
    writeFile(cwd, 'k', API_KEY);
    expect(resolveApiKey({ apiKey: '', apiKeyFile: 'k' }, cwd)).toBe(API_KEY);
    expect(resolveApiKey({ apiKey: API_KEY, apiKeyFile: 'missing' }, cwd)).toBe(API_KEY);
    expect(resolveApiKey({ apiKey: '', apiKeyFile: '' }, cwd)).toBe('');
    expect(() => resolveApiKey({ apiKey: 'junk', apiKeyFile: '' }, cwd)).toThrow(ConfigError);
  });
});

describe('secrets in reports', () => {
  it('an API key pasted into another key is cut to its handle', () => {
    const cwd = tmp();
    const file = writeFile(cwd, 'conf.json', { venue: { baseUrl: `https://${API_KEY}@venue.example/v1` } });
    const { issues, report } = failure(() => loadConfig(opts(cwd, { configFiles: [file] })));
    expect(issues).toMatchObject([{ key: 'venue.baseUrl', value: `"https://${HANDLE}"` }]);
    expect(report).not.toContain(SECRET);
  });

  it('an API key under an unknown key is cut to its handle', () => {
    const cwd = tmp();
    const file = writeFile(cwd, 'conf.json', { venue: { key: API_KEY } });
    const { report } = failure(() => loadConfig(opts(cwd, { configFiles: [file] })));
    expect(report).toContain(`venue.key = "${HANDLE}"`);
    expect(report).not.toContain(SECRET);
  });

  it('an API key in malformed JSON is not quoted back', () => {
    const cwd = tmp();
    const file = writeFile(cwd, 'conf.json', `{"venue": {"apiKey": "${API_KEY}" oops}}`);
    const { report } = failure(() => loadConfig(opts(cwd, { configFiles: [file] })));
    expect(report).toContain('not valid JSON');
    expect(report).not.toContain(SECRET);
  });
});

describe('maskConfig', () => {
  it('replaces the API key by its handle and changes nothing else', () => {
    const config = loadConfig(opts(tmp(), { env: { LEDGER_MM_API_KEY: API_KEY } }));
    const masked = maskConfig(config);
    expect(masked.venue.apiKey).toBe(HANDLE);
    expect(JSON.stringify(masked)).not.toContain(SECRET);
    expect({ ...masked, venue: { ...masked.venue, apiKey: API_KEY } }).toEqual(config);
    expect(config.venue.apiKey).toBe(API_KEY);
  });

  it('leaves an empty key empty', () => {
    expect(maskConfig(loadConfig(opts(tmp()))).venue.apiKey).toBe('');
  });
});
