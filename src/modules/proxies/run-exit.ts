// The proxy check a cloud run makes at launch (decisions.md §10): the device's assigned proxy
// (its newest active assignment), checked through for real like a validation, answering the
// exit IP and its country for the run's history record and the proxy as a URL for the
// macro's own traffic, with the relay plan (relay-plan.ts) an `adb` device is routed by. The
// proxy's stored check result is left alone: this is the run's.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { type AddressPolicy, vetHost } from '../../lib/address-policy.js';
import type { ProxyChecker } from './checker.js';
import { encodeCredentials } from './gateways.js';
import type { Geolocator } from './geo.js';
import { type LocalRelay, openLocalRelay } from './local-relay.js';
import { targetingOf } from './present.js';
import { type RelayPlan, relayPlan } from './relay-plan.js';
import type { ProxySecrets } from './secrets.js';

export interface RunProxyRelay extends RelayPlan {
  /** `local_relay` only: starts the relay on `local.port`, forwarding to the proxy with its credentials. */
  open?: () => Promise<LocalRelay>;
}

export interface RunProxyExit {
  /** `scheme://user:password@host:port`; it carries the password, so it goes only into the run's environment. */
  proxyUrl: string;
  exitIp: string | null;
  country: string | null;
  /** How the device itself is routed through the proxy (the relay recipe); applied by runs on `adb` hosts. */
  relay: RunProxyRelay;
}

const hostPart = (host: string) => (host.includes(':') ? `[${host}]` : host);

export class RunProxyExitCheck {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly secrets: ProxySecrets,
    private readonly checker: ProxyChecker,
    private readonly geo: Geolocator,
    private readonly policy: AddressPolicy,
  ) {}

  /** Null when the device has no active assignment. A proxy that cannot be reached gives null exit fields; its traffic then fails, it never bypasses the proxy. */
  async check(userId: number, deviceId: number): Promise<RunProxyExit | null> {
    const found = await this.db
      .selectFrom('proxy_assignments as a')
      .innerJoin('proxies as p', 'p.id', 'a.proxy_id')
      .selectAll('p')
      .select(['a.session_id', 'a.id as assignment_id'])
      .where('a.user_id', '=', userId)
      .where('a.device_id', '=', deviceId)
      .where('a.active', '=', 1)
      .where('p.user_id', '=', userId)
      .orderBy('a.id', 'desc')
      .executeTakeFirst();
    if (!found) return null;
    const { username, password } = encodeCredentials(found.gateway, { username: found.username, password: this.secrets.open(found.password_enc) }, targetingOf(found), found.session_id);
    const auth = username ? `${encodeURIComponent(username)}:${encodeURIComponent(password)}@` : '';
    const proxyUrl = `${found.scheme === 'socks5' ? 'socks5h' : found.scheme}://${auth}${hostPart(found.host)}:${found.port}`;
    const plan = relayPlan({ id: found.assignment_id }, found);
    const relay: RunProxyRelay = plan.mode === 'local_relay' ? { ...plan, open: () => openLocalRelay(proxyUrl, plan.local.port) } : plan;
    let address: string;
    try {
      address = await vetHost(found.host, this.policy);
    } catch {
      return { proxyUrl, exitIp: null, country: null, relay };
    }
    const outcome = await this.checker.check({ scheme: found.scheme, host: found.host, address, port: found.port, username, password });
    if (!outcome.reachable) return { proxyUrl, exitIp: null, country: null, relay };
    return { proxyUrl, exitIp: outcome.exitIp, country: this.geo.locate(outcome.exitIp).country, relay };
  }
}
