import { beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { VenueClient } from '../../src/venue/client.js';
import type { VenueClientOptions } from '../../src/venue/client-options.js';
import { VenueError } from '../../src/venue/errors.js';
import { createLiveVenueClient } from '../../src/venue/live-client.js';
import {
  checkSubmitUrl,
  isLoopbackHost,
  parseBaseUrl,
  parseSubmitOrigin,
} from '../../src/venue/url-policy.js';
import { ok } from '../support/stub-server.js';
import { API_KEY, FakeTransport, SUBMIT_BODY, type Harness, useHarness } from './support/fixtures.js';
import { thrownBy as thrown } from '../support/thrown.js';

function construct(over: Partial<VenueClientOptions>): () => VenueClient {
  return () =>
    new VenueClient({
      baseUrl: 'https://api.venue.test/v1',
      submitUrl: 'https://submit.venue.test/submit',
      apiKey: API_KEY,
      transport: new FakeTransport(),
      clock: systemClock,
      ...over,
    });
}

describe('isLoopbackHost', () => {
  it.each(['localhost', '127.0.0.1', '127.1.2.3', '[::1]', '[::ffff:7f00:1]'])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });
  it.each(['example.com', '10.0.0.1', '128.0.0.1', 'localhost.evil.com', '127.0.0.1.nip.io', '[::2]'])(
    '%s is not',
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
    },
  );
  it('sees through URL normalisation of IPv4 spellings', () => {
    expect(isLoopbackHost(new URL('http://127.1/').hostname)).toBe(true);
    expect(isLoopbackHost(new URL('http://0x7f.1/').hostname)).toBe(true);
  });
});

describe('base URL', () => {
  it('must end with /v1; a trailing slash is tolerated and paths are appended after it', () => {
    expect(parseBaseUrl('https://api.venue.test/trade/v1')).toBe('https://api.venue.test/trade/v1');
    expect(parseBaseUrl('https://api.venue.test/trade/v1/')).toBe('https://api.venue.test/trade/v1');
    expect(() => parseBaseUrl('https://api.venue.test/trade')).toThrow(TypeError);
    expect(() => parseBaseUrl('https://api.venue.test/v10')).toThrow(TypeError);
    expect(() => parseBaseUrl('https://api.venue.test/v1?x=1')).toThrow(TypeError);
    expect(() => parseBaseUrl('not a url')).toThrow(TypeError);
    expect(() => parseBaseUrl('ftp://api.venue.test/v1')).toThrow(TypeError);
  });

  it('plain http only to loopback, in the constructor', () => {
    expect(construct({ baseUrl: 'http://127.0.0.1:8080/v1' })).not.toThrow();
    expect(construct({ baseUrl: 'http://localhost/v1/' })).not.toThrow();
    expect(construct({ baseUrl: 'http://[::1]:9/v1' })).not.toThrow();
    const err = thrown(construct({ baseUrl: 'http://api.venue.test/v1' }));
    expect(err).toBeInstanceOf(VenueError);
    expect((err as VenueError).code).toBe('CLIENT_INSECURE_URL');
  });

  it('the configured submit URL follows the same rule', () => {
    expect(parseSubmitOrigin('https://submit.venue.test/submit')).toBe('https://submit.venue.test');
    const err = thrown(construct({ submitUrl: 'http://submit.venue.test/submit' }));
    expect((err as VenueError).code).toBe('CLIENT_INSECURE_URL');
  });

  it('the live factory refuses before building any pool', () => {
    const err = thrown(() =>
      createLiveVenueClient({
        baseUrl: 'http://10.1.1.1/v1',
        submitUrl: 'https://s.test/submit',
        apiKey: API_KEY,
      }),
    );
    expect((err as VenueError).code).toBe('CLIENT_INSECURE_URL');
  });
});

describe('other constructor checks', () => {
  it('refuses a submit timeout under 120 000 ms', () => {
    expect(construct({ timeouts: { submit: 119_999 } })).toThrow(RangeError);
    expect(construct({ timeouts: { submit: 120_000 } })).not.toThrow();
  });

  it('refuses non-positive timeouts and empty or malformed keys, without echoing the key', () => {
    expect(construct({ timeouts: { read: 0 } })).toThrow(RangeError);
    expect(construct({ apiKey: '' })).toThrow(TypeError);
    const err = thrown(construct({ apiKey: 'mm_ak_x.secret\r\nX-Evil: 1' }));
    expect(err).toBeInstanceOf(TypeError);
    expect((err as Error).message).not.toContain('secret');
  });

  it('refuses bad retry bounds', () => {
    expect(construct({ retry: { readAttempts: 0 } })).toThrow(RangeError);
    expect(construct({ retry: { baseDelayMs: -1 } })).toThrow(RangeError);
  });
});

describe('checkSubmitUrl', () => {
  const origin = 'https://submit.venue.test';
  it('returns the URL untouched when the origin matches', () => {
    const u = checkSubmitUrl('https://submit.venue.test/submit?t=abc%2F1', origin);
    expect(u.href).toBe('https://submit.venue.test/submit?t=abc%2F1');
  });
  it.each([
    ['another host', 'https://evil.test/submit', 'CLIENT_SUBMIT_URL_REFUSED'],
    ['another port', 'https://submit.venue.test:8443/submit', 'CLIENT_SUBMIT_URL_REFUSED'],
    ['https downgraded to http (non-loopback)', 'http://submit.venue.test/submit', 'CLIENT_INSECURE_URL'],
    ['credentials', 'https://u:p@submit.venue.test/submit', 'CLIENT_SUBMIT_URL_REFUSED'],
    ['a relative path', '/submit', 'CLIENT_SUBMIT_URL_REFUSED'],
    ['another scheme', 'ftp://submit.venue.test/submit', 'CLIENT_SUBMIT_URL_REFUSED'],
  ])('refuses %s', (_, url, code) => {
    expect(thrown(() => checkSubmitUrl(url, origin))).toMatchObject({ code });
  });
});

describe('submitUrl over the wire', () => {
  let h: Harness;
  const harness = useHarness();
  beforeEach(() => {
    h = harness();
  });

  it('uses the given submitUrl exactly, with no API key', async () => {
    h.submitHost.on('POST', '/submit', { status: 200, body: '' });
    const out = await h.client.submit(`${h.submitHost.origin}/submit?token=a%2Fb`, SUBMIT_BODY);
    expect(out).toEqual({ kind: 'accepted' });
    const [req] = h.submitHost.requests;
    expect(req!.target).toBe('/submit?token=a%2Fb');
    expect(JSON.parse(req!.body)).toEqual(SUBMIT_BODY);
    expect(req!.headers.authorization).toBeUndefined();
    expect(req!.headers['x-api-key']).toBeUndefined();
    expect(req!.headers['content-type']).toBe('application/json');
  });

  it('refuses a foreign-origin submitUrl with nothing sent to either server', async () => {
    h.api.on('POST', '/submit', ok(null));
    // The API host is a perfectly reachable loopback server: only the origin check stops it.
    const out = await h.client.submit(`${h.api.origin}/submit`, SUBMIT_BODY);
    expect(out).toMatchObject({ kind: 'rejected', error: { code: 'CLIENT_SUBMIT_URL_REFUSED' } });
    expect(h.api.requests).toHaveLength(0);
    expect(h.submitHost.requests).toHaveLength(0);
  });

  it('refuses an http submitUrl to a non-loopback host', async () => {
    const out = await h.client.submit('http://submit.example.com/submit', SUBMIT_BODY);
    expect(out).toMatchObject({ kind: 'rejected', error: { code: 'CLIENT_INSECURE_URL' } });
    expect(h.api.requests).toHaveLength(0);
    expect(h.submitHost.requests).toHaveLength(0);
  });
});
