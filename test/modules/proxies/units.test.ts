// Pure parts of the proxy module: the import line parser and masking, gateway username
// encoding per provider, UTC usage windows, and the real offline geolocation database.
import { describe, expect, test } from 'vitest';
import { encodeCredentials, exitMismatch } from '../../../src/modules/proxies/gateways.js';
import { MmdbGeolocator } from '../../../src/modules/proxies/geo.js';
import { maskLine, parseProxyLine } from '../../../src/modules/proxies/import-parser.js';
import { periodStart } from '../../../src/modules/proxies/usage.js';
import { newSessionId } from '../../../src/modules/proxies/validate.js';

describe('import lines', () => {
  test.each([
    ['1.2.3.4:80', { scheme: 'http', host: '1.2.3.4', port: 80, username: '', password: '' }],
    ['h.example.com:80:u:p:q@r', { host: 'h.example.com', username: 'u', password: 'p:q@r' }],
    ['socks5h://u:p@x:y@h.example.com:1080', { scheme: 'socks5', username: 'u', password: 'p@x:y' }],
    ['socks://u:p@[::1]:1080', { scheme: 'socks5', host: '::1', port: 1080 }],
    ['[2001:DB8::1]:8080:u:p', { host: '2001:db8::1', username: 'u', password: 'p' }],
    ['HTTPS://U:P@H.EXAMPLE.COM:443', { scheme: 'https', host: 'h.example.com', username: 'U', password: 'P' }],
    ['h.example.com:80:u:pa::ss', { username: 'u', password: 'pa::ss' }],
  ])('%s', (line, expected) => {
    const result = parseProxyLine(line);
    expect(result.kind).toBe('proxy');
    if (result.kind === 'proxy') expect(result.proxy).toMatchObject(expected);
  });

  test('skips blanks and comments; refuses bad lines with a reason', () => {
    expect(parseProxyLine('  ').kind).toBe('skip');
    expect(parseProxyLine('# x:1').kind).toBe('skip');
    for (const bad of ['h.example.com', 'h.example.com:0', 'h.example.com:80:u', '2001:db8::1:80', '[::1:80', 'gopher://h:1', 'h.example.com:80::p']) {
      expect(parseProxyLine(bad).kind, bad).toBe('error');
    }
  });

  test('masking hides everything that may be a password', () => {
    expect(maskLine('h:1:user:se:cr@t')).toBe('h:1:user:********');
    expect(maskLine('http://user:se:cr@t@h:1')).toBe('http://user:********@h:1');
    expect(maskLine('[::1]:1:user:secret')).toBe('[::1]:1:user:********');
    expect(maskLine('h:1:secret')).toBe('h:1:********');
    expect(maskLine('h:1')).toBe('h:1');
  });
});

describe('gateway usernames', () => {
  const base = { username: 'acct', password: 'pw' };
  const targeting = { countries: ['US'], state: 'New York', city: 'New York', zip: '10001', asn: 7922 };
  test.each([
    ['brightdata', 'acct-country-us-state-new_york-city-newyork-zip-10001-asn-7922-session-abcd1234', 'pw'],
    ['oxylabs', 'customer-acct-cc-US-st-us_new_york-city-new_york-sessid-abcd1234', 'pw'],
    ['decodo', 'user-acct-country-us-state-us_new_york-city-new_york-zip-10001-asn-7922-session-abcd1234', 'pw'],
    ['iproyal', 'acct', 'pw_country-us_state-newyork_city-newyork_session-abcd1234_lifetime-30m'],
    ['soax', 'acct-country-us-region-new_york-city-new_york-sessionid-abcd1234-sessionlength-600', 'pw'],
  ])('%s', (gateway, username, password) => {
    expect(encodeCredentials(gateway, base, targeting, 'abcd1234')).toMatchObject({ username, password });
  });

  test('no session for rotating; a plain proxy is unchanged; unexpressed targeting is checked on the exit', () => {
    expect(encodeCredentials('brightdata', base, { countries: ['US'] }, null).username).toBe('acct-country-us');
    expect(encodeCredentials(null, base, targeting, 'abcd1234')).toEqual({ ...base, unexpressed: {} });
    const encoded = encodeCredentials('oxylabs', base, { countries: ['US', 'CA'], zip: '10001', exclude_asn: [1] }, null);
    expect(encoded.username).toBe('customer-acct');
    expect(encoded.unexpressed).toEqual({ countries: ['US', 'CA'], zip: '10001', exclude_asn: [1] });
    expect(exitMismatch(encoded.unexpressed, { country: 'CA', asn: null })).toBe(false);
    expect(exitMismatch(encoded.unexpressed, { country: 'DE', asn: null })).toBe(true);
    expect(exitMismatch(encoded.unexpressed, { country: 'US', asn: 1 })).toBe(true);
  });

  test('session ids are 8 lowercase alphanumerics', () => {
    for (let i = 0; i < 200; i++) expect(newSessionId()).toMatch(/^[a-z0-9]{8}$/);
  });
});

describe('usage windows (UTC)', () => {
  const now = Date.parse('2026-03-01T23:30:00Z'); // a Sunday
  test('today from midnight, week from Monday, month from the 1st, all unbounded', () => {
    expect(new Date(periodStart('today', now)!).toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(new Date(periodStart('week', now)!).toISOString()).toBe('2026-02-23T00:00:00.000Z');
    expect(new Date(periodStart('month', now)!).toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(new Date(periodStart('week', Date.parse('2026-03-02T00:00:00Z'))!).toISOString()).toBe('2026-03-02T00:00:00.000Z');
    expect(periodStart('all', now)).toBeNull();
  });
});

describe('the offline geolocation database', () => {
  test('finds the country of well-known public addresses, offline; nothing for private ones', () => {
    const geo = new MmdbGeolocator();
    expect(geo.locate('8.8.8.8').country).toBe('US');
    expect(geo.locate('2001:4860:4860::8888').country).toBe('US');
    expect(geo.locate('193.0.6.139').country).toBe('NL');
    expect(geo.locate('127.0.0.1').country).toBeNull();
    expect(geo.locate('not an ip').country).toBeNull();
  });
});
