// Which addresses the service may connect to on a user's behalf (webhook deliveries, proxy
// checks). Only public unicast addresses: a user must not be able to make the server call
// its own network (loopback, private ranges, link-local cloud metadata at 169.254.169.254,
// CGNAT, multicast, reserved, IPv6 ULA and link-local, and IPv4-mapped forms of them).
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export type Resolver = (host: string) => Promise<string[]>;

/** Every A and AAAA address of a host name, as the system resolver gives them. */
export const systemResolver: Resolver = async (host) => (await dnsLookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/** True only for a public unicast address (IPv4-mapped IPv6 judged as the IPv4 inside). */
export function isPublicUnicast(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

export class AddressRefusedError extends Error {
  constructor(
    readonly host: string,
    readonly reason: string,
  ) {
    super(`${host}: ${reason}`);
  }
}

export interface AddressPolicy {
  /** Operator setting for development and tests: private addresses allowed. */
  allowPrivate: boolean;
  resolver: Resolver;
}

/**
 * Resolves `host` and returns the one address to connect to, after checking that every
 * address the name has is public (a name with one private address among public ones is
 * refused: the connection could otherwise be steered to it). Callers connect to the
 * returned address only, never looking the name up again, so a name that changes between
 * the check and the connection (DNS rebinding) cannot reach an internal address.
 */
export async function vetHost(host: string, policy: AddressPolicy): Promise<string> {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (bare.toLowerCase() === 'localhost' || bare.toLowerCase().endsWith('.localhost')) {
    if (policy.allowPrivate) return bare.toLowerCase() === 'localhost' ? '127.0.0.1' : (await policy.resolver(bare))[0] ?? '127.0.0.1';
    throw new AddressRefusedError(host, 'localhost is not allowed');
  }
  let addresses: string[];
  if (isIP(bare)) {
    addresses = [bare];
  } else {
    try {
      addresses = await policy.resolver(bare);
    } catch {
      throw new AddressRefusedError(host, 'the host name does not resolve');
    }
    if (addresses.length === 0) throw new AddressRefusedError(host, 'the host name does not resolve');
  }
  if (!policy.allowPrivate) {
    const refused = addresses.find((address) => !isPublicUnicast(address));
    if (refused) throw new AddressRefusedError(host, `resolves to ${refused}, which is not a public address`);
  }
  return addresses[0];
}
