// Where the egress proxy lets a run connect (decisions.md §10): the webhook address policy
// (public unicast only, by IP or by every address a name resolves to; lib/address-policy.ts),
// and, even when RUN_ALLOW_PRIVATE_NETWORKS lifts that rule, never this machine itself: no
// loopback, no unspecified address (0.0.0.0 reaches the host's loopback), no address of one
// of the host's interfaces. The answer is the one address the proxy then connects to, so a
// name that changes between the check and the connection cannot steer it (DNS rebinding).
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';
import { AddressRefusedError, type AddressPolicy, vetHost } from '../../../../lib/address-policy.js';

function ownAddresses(): Set<string> {
  const own = new Set<string>();
  for (const list of Object.values(networkInterfaces())) for (const entry of list ?? []) own.add(normalize(entry.address.split('%')[0]));
  return own;
}

function normalize(address: string): string {
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.toNormalizedString();
}

export function isThisMachine(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const normalized = normalize(address);
  const range = ipaddr.parse(normalized).range();
  return range === 'loopback' || range === 'unspecified' || ownAddresses().has(normalized);
}

export async function vetEgressHost(host: string, policy: AddressPolicy): Promise<string> {
  const address = await vetHost(host, policy);
  if (isThisMachine(address)) throw new AddressRefusedError(host, `${address} is this machine, which runs may not reach`);
  return address;
}
