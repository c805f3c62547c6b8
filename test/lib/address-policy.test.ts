// The private-address rule shared by webhook deliveries and proxy checks.
import { describe, expect, test } from 'vitest';
import { AddressRefusedError, isPublicUnicast, vetHost } from '../../src/lib/address-policy.js';

describe('isPublicUnicast', () => {
  test.each([
    '127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255',
    '240.0.0.1', '192.0.2.1', '::1', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:169.254.169.254',
    'not an ip',
  ])('%s is refused', (address) => {
    expect(isPublicUnicast(address)).toBe(false);
  });

  test.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is allowed', (address) => {
    expect(isPublicUnicast(address)).toBe(true);
  });
});

describe('vetHost', () => {
  const resolver = (map: Record<string, string[]>) => async (host: string) => {
    if (!(host in map)) throw new Error('ENOTFOUND');
    return map[host];
  };
  const strict = (map: Record<string, string[]> = {}) => ({ allowPrivate: false, resolver: resolver(map) });

  test('returns the vetted address of a public name', async () => {
    await expect(vetHost('hooks.example.com', strict({ 'hooks.example.com': ['93.184.216.34'] }))).resolves.toBe('93.184.216.34');
  });

  test('refuses localhost, private literals and bracketed IPv6 loopback', async () => {
    for (const host of ['localhost', 'api.localhost', '127.0.0.1', '[::1]', '169.254.169.254', '[::ffff:127.0.0.1]']) {
      await expect(vetHost(host, strict())).rejects.toBeInstanceOf(AddressRefusedError);
    }
  });

  test('refuses a name with any private address among public ones', async () => {
    await expect(vetHost('mixed.example.com', strict({ 'mixed.example.com': ['93.184.216.34', '10.0.0.5'] }))).rejects.toThrow(/10\.0\.0\.5/);
  });

  test('refuses a name that does not resolve', async () => {
    await expect(vetHost('nowhere.invalid', strict())).rejects.toThrow(/does not resolve/);
  });

  test('the operator setting allows private addresses', async () => {
    await expect(vetHost('127.0.0.1', { allowPrivate: true, resolver: resolver({}) })).resolves.toBe('127.0.0.1');
    await expect(vetHost('localhost', { allowPrivate: true, resolver: resolver({}) })).resolves.toBe('127.0.0.1');
  });
});
