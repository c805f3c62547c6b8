// A proxy check: the proxy's own address must pass the private-address rule (so users
// cannot probe the internal network through us), then we connect through it for real,
// geolocate the exit IP and store the result on the proxy.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ServiceContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import type { IdInput } from '../../core/schema.js';
import type { CHECKED_PROXY_STATUSES, ProxyCheckError } from '../../core/values.js';
import { type AddressPolicy, AddressRefusedError, vetHost } from '../../lib/address-policy.js';
import type { Clock } from '../../lib/clock.js';
import { compact } from '../../lib/compact.js';
import type { CheckOutcome, ProxyChecker } from './checker.js';
import { encodeCredentials, exitMismatch } from './gateways.js';
import type { Geolocator, GeoInfo } from './geo.js';
import { targetingOf } from './present.js';
import { findOwnedProxy } from './proxy-service.js';
import type { ProxySecrets } from './secrets.js';

/** Fresh sessions tried when a gateway's exit breaks targeting it could not be told about. */
const TARGETING_ATTEMPTS = 3;

export class AddressNotAllowedError extends AppError {
  constructor(reason: string) {
    super(422, 'address_not_allowed', `The proxy's address is not allowed: ${reason}. Only public addresses can be checked.`);
  }
}

export function newSessionId(): string {
  // 8 lowercase alphanumerics (decisions.md §6); rejection sampling keeps them uniform.
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let id = '';
  while (id.length < 8) {
    for (const byte of randomBytes(16)) {
      if (byte < 252 && id.length < 8) id += alphabet[byte % 36];
    }
  }
  return id;
}

export class ProxyValidator {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly secrets: ProxySecrets,
    private readonly checker: ProxyChecker,
    private readonly geo: Geolocator,
    private readonly policy: AddressPolicy,
  ) {}

  async validate(ctx: ServiceContext, { id: proxyId }: IdInput) {
    const { userId } = ctx;
    const proxy = await findOwnedProxy(this.db, userId, proxyId);
    let outcome: CheckOutcome;
    let place: GeoInfo = { country: null, city: null, asn: null };
    let mismatch = false;
    let address: string | null = null;
    try {
      address = await vetHost(proxy.host, this.policy);
    } catch (error) {
      if (!(error instanceof AddressRefusedError)) throw error;
      // A name that does not resolve is simply unreachable; a private address is refused
      // before any connection, and the proxy's stored state is left as it was.
      if (!/does not resolve/.test(error.reason)) throw new AddressNotAllowedError(error.reason);
    }
    if (address === null) {
      outcome = { reachable: false, error: 'unreachable' };
    } else {
      const base = { username: proxy.username, password: this.secrets.open(proxy.password_enc) };
      let attempt = 0;
      do {
        attempt += 1;
        const credentials = encodeCredentials(proxy.gateway, base, targetingOf(proxy), proxy.gateway ? newSessionId() : null);
        outcome = await this.checker.check({ scheme: proxy.scheme, host: proxy.host, address, port: proxy.port, username: credentials.username, password: credentials.password });
        if (!outcome.reachable) break;
        place = this.geo.locate(outcome.exitIp);
        mismatch = exitMismatch(credentials.unexpressed, place);
      } while (mismatch && attempt < TARGETING_ATTEMPTS);
    }
    const status: (typeof CHECKED_PROXY_STATUSES)[number] = outcome.reachable ? 'live' : 'dead';
    const error: ProxyCheckError | null = outcome.reachable ? (mismatch ? 'targeting_mismatch' : null) : outcome.error;
    await this.db
      .updateTable('proxies')
      .set({
        status,
        last_check_at: this.clock.now(),
        last_exit_ip: outcome.reachable ? outcome.exitIp : null,
        last_exit_country: place.country,
        last_exit_city: place.city,
        last_exit_asn: place.asn,
        last_latency_ms: outcome.reachable ? outcome.latencyMs : null,
        last_error: error,
        updated_at: this.clock.now(),
      })
      .where('id', '=', proxy.id)
      .where('user_id', '=', userId)
      .execute();
    return compact({
      proxy_id: proxy.id,
      status,
      reachable: outcome.reachable,
      latency_ms: outcome.reachable ? outcome.latencyMs : null,
      exit_ip: outcome.reachable ? outcome.exitIp : null,
      country: place.country,
      city: place.city,
      asn: place.asn,
      error,
    });
  }
}
