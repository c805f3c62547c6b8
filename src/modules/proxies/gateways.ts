// Gateway adapters: each provider reads targeting and the session from the username (or,
// for IPRoyal, the password) in its own documented syntax. What a provider cannot express
// is returned as `unexpressed`, and the checker verifies it on the exit after connecting.
import { type Gateway, GATEWAYS } from '../../core/values.js';
import type { Targeting } from './schemas.js';

export interface Credentials {
  username: string;
  password: string;
}

export interface Encoded extends Credentials {
  /** Targeting the provider's syntax has no place for: checked on the exit instead. */
  unexpressed: Targeting;
}

/** Lower-case, spaces to underscores: the city/state spelling the providers document. */
const slug = (value: string) => value.trim().toLowerCase().replace(/\s+/g, '_');

interface Parts {
  country?: string;
  state?: string;
  city?: string;
  zip?: string;
  asn?: number;
  unexpressed: Targeting;
}

/** Every provider takes one country; a list of several, and every exclusion, is checked on the exit. */
function split(targeting: Targeting, supports: { state: boolean; city: boolean; zip: boolean; asn: boolean }): Parts {
  const unexpressed: Targeting = {};
  const parts: Parts = { unexpressed };
  if (targeting.countries?.length === 1) parts.country = targeting.countries[0].toLowerCase();
  else if (targeting.countries?.length) unexpressed.countries = targeting.countries;
  if (targeting.exclude_countries?.length) unexpressed.exclude_countries = targeting.exclude_countries;
  if (targeting.exclude_asn?.length) unexpressed.exclude_asn = targeting.exclude_asn;
  for (const field of ['state', 'city', 'zip'] as const) {
    const value = targeting[field];
    if (value === undefined) continue;
    if (supports[field]) parts[field] = slug(value);
    else unexpressed[field] = value;
  }
  if (targeting.asn !== undefined) {
    if (supports.asn) parts.asn = targeting.asn;
    else unexpressed.asn = targeting.asn;
  }
  return parts;
}

const withPrefix = (username: string, prefix: string) => (username.startsWith(prefix) ? username : `${prefix}${username}`);
const dashed = (pairs: [string, string | number | undefined][]) =>
  pairs
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `-${k}-${v}`)
    .join('');

type Adapter = (base: Credentials, targeting: Targeting, sessionId: string | null) => Encoded;

const ADAPTERS: Record<Gateway, Adapter> = {
  // brd-customer-<id>-zone-<zone>-country-us-state-ny-city-new_york-zip-10001-asn-7922-session-abc12345
  brightdata: (base, targeting, session) => {
    const p = split(targeting, { state: true, city: true, zip: true, asn: true });
    const suffix = dashed([['country', p.country], ['state', p.state], ['city', p.city?.replace(/_/g, '')], ['zip', p.zip], ['asn', p.asn], ['session', session ?? undefined]]);
    return { username: `${base.username}${suffix}`, password: base.password, unexpressed: p.unexpressed };
  },
  // customer-<user>-cc-US-st-us_new_york-city-new_york-sessid-abc12345 (no ZIP or ASN in the username)
  oxylabs: (base, targeting, session) => {
    const p = split(targeting, { state: true, city: true, zip: false, asn: false });
    const state = p.state && p.country ? `${p.country}_${p.state}` : p.state;
    const suffix = dashed([['cc', p.country?.toUpperCase()], ['st', state], ['city', p.city], ['sessid', session ?? undefined]]);
    return { username: `${withPrefix(base.username, 'customer-')}${suffix}`, password: base.password, unexpressed: p.unexpressed };
  },
  // user-<user>-country-us-state-us_new_york-city-new_york-zip-10001-asn-7922-session-abc12345
  decodo: (base, targeting, session) => {
    const p = split(targeting, { state: true, city: true, zip: true, asn: true });
    const state = p.state && p.country ? `${p.country}_${p.state}` : p.state;
    const suffix = dashed([['country', p.country], ['state', state], ['city', p.city], ['zip', p.zip], ['asn', p.asn], ['session', session ?? undefined]]);
    return { username: `${withPrefix(base.username, 'user-')}${suffix}`, password: base.password, unexpressed: p.unexpressed };
  },
  // IPRoyal puts everything in the password: <pass>_country-us_state-newyork_city-newyork_session-abc12345_lifetime-30m
  iproyal: (base, targeting, session) => {
    const p = split(targeting, { state: true, city: true, zip: false, asn: false });
    const pairs: [string, string | undefined][] = [['country', p.country], ['state', p.state?.replace(/_/g, '')], ['city', p.city?.replace(/_/g, '')]];
    if (session) pairs.push(['session', session], ['lifetime', '30m']);
    const suffix = pairs.filter(([, v]) => v !== undefined).map(([k, v]) => `_${k}-${v}`).join('');
    return { username: base.username, password: `${base.password}${suffix}`, unexpressed: p.unexpressed };
  },
  // package-<id>-country-us-region-new_york-city-new_york-sessionid-abc12345-sessionlength-600
  soax: (base, targeting, session) => {
    const p = split(targeting, { state: true, city: true, zip: false, asn: false });
    const suffix = dashed([['country', p.country], ['region', p.state], ['city', p.city], ['sessionid', session ?? undefined], ['sessionlength', session ? 600 : undefined]]);
    return { username: `${base.username}${suffix}`, password: base.password, unexpressed: p.unexpressed };
  },
};

/** The credentials to send to the proxy. A plain proxy (no gateway) gets its own back unchanged. */
export function encodeCredentials(gateway: string | null, base: Credentials, targeting: Targeting, sessionId: string | null): Encoded {
  if (gateway === null || !(GATEWAYS as readonly string[]).includes(gateway)) return { ...base, unexpressed: {} };
  return ADAPTERS[gateway as Gateway](base, targeting, sessionId);
}

/** True when an exit breaks targeting the provider could not be told about. */
export function exitMismatch(unexpressed: Targeting, exit: { country: string | null; asn: number | null }): boolean {
  const country = exit.country?.toUpperCase() ?? null;
  if (unexpressed.countries?.length && (country === null || !unexpressed.countries.map((c) => c.toUpperCase()).includes(country))) return true;
  if (country && unexpressed.exclude_countries?.map((c) => c.toUpperCase()).includes(country)) return true;
  if (exit.asn !== null && unexpressed.asn !== undefined && exit.asn !== unexpressed.asn) return true;
  if (exit.asn !== null && unexpressed.exclude_asn?.includes(exit.asn)) return true;
  return false;
}
