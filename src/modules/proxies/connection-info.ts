// What a device needs to use its assigned proxy: the endpoint, the username with the
// gateway's targeting and session encoded, the password (masked unless asked for, each
// reveal audited), and a relay recipe for proxies Android cannot use directly.
import type { Kysely } from 'kysely';
import type { ServiceContext } from '../../core/context.js';
import type { IdInput } from '../../core/schema.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { compact } from '../../lib/compact.js';
import type { AssignmentRow, AssignmentService } from './assignments.js';
import { encodeCredentials } from './gateways.js';
import { MASK } from './import-parser.js';
import { type ProxyRow, targetingOf } from './present.js';
import type { ConnectionInfoInput } from './schemas.js';
import type { ProxySecrets } from './secrets.js';

/** Local relay ports: one per assignment, in a range adb reverse and the host leave free. */
const RELAY_PORT_BASE = 20_000;
const RELAY_PORT_SPAN = 10_000;

/**
 * Android's global proxy setting takes host:port only: no credentials and no SOCKS. So an
 * authenticated or SOCKS5 proxy is reached through an unauthenticated HTTP relay that the
 * application runs on the device's host at 127.0.0.1 (forwarding to the proxy with the
 * credentials above), exposed to the device by `adb reverse`. A plain HTTP proxy without
 * credentials is set directly.
 */
export function relayRecipe(assignment: Pick<AssignmentRow, 'id' | 'device_port'>, proxy: Pick<ProxyRow, 'scheme' | 'host' | 'port' | 'username'>) {
  const adb = assignment.device_port ? `adb -s 127.0.0.1:${assignment.device_port}` : 'adb';
  const host = proxy.host.includes(':') ? `[${proxy.host}]` : proxy.host;
  const covers = 'HTTP and HTTPS traffic of apps that honour the system proxy; not UDP (QUIC, DNS) or apps that ignore it';
  if (!proxy.username && proxy.scheme === 'http') {
    return {
      mode: 'direct' as const,
      local: { scheme: proxy.scheme, host: proxy.host, port: proxy.port },
      device_steps: [`${adb} shell settings put global http_proxy ${host}:${proxy.port}`],
      teardown: [`${adb} shell settings put global http_proxy :0`],
      covers,
    };
  }
  const port = RELAY_PORT_BASE + (assignment.id % RELAY_PORT_SPAN);
  return {
    mode: 'local_relay' as const,
    local: { scheme: 'http', host: '127.0.0.1', port },
    device_steps: [`${adb} reverse tcp:${port} tcp:${port}`, `${adb} shell settings put global http_proxy 127.0.0.1:${port}`],
    teardown: [`${adb} shell settings put global http_proxy :0`, `${adb} reverse --remove tcp:${port}`],
    covers,
  };
}

export class ConnectionInfoService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly secrets: ProxySecrets,
    private readonly assignments: AssignmentService,
  ) {}

  /** With `include_secrets`, the password is revealed and the reveal audited: who (key or session) and from where, from `ctx`. */
  async read(ctx: ServiceContext, { id: assignmentId, include_secrets }: IdInput & ConnectionInfoInput) {
    const includeSecrets = include_secrets === true;
    const { row, proxy } = await this.assignments.findActive(ctx.userId, assignmentId);
    const encoded = encodeCredentials(proxy.gateway, { username: proxy.username, password: this.secrets.open(proxy.password_enc) }, targetingOf(proxy), row.session_id);
    if (includeSecrets && encoded.password) {
      // Written before the password leaves, so no reveal goes unrecorded.
      await this.db
        .insertInto('proxy_secret_reveals')
        .values({
          user_id: ctx.userId,
          assignment_id: row.id,
          proxy_id: proxy.id,
          api_key_id: ctx.keyId,
          session_id: ctx.sessionId,
          client_address: ctx.clientAddress,
          created_at: this.clock.now(),
        })
        .execute();
    }
    const revealed = includeSecrets && encoded.password !== '';
    return compact({
      scheme: proxy.scheme,
      host: proxy.host,
      port: proxy.port,
      username: encoded.username || null,
      password: encoded.password ? (revealed ? encoded.password : MASK) : null,
      session_id: row.session_id,
      session_type: row.session_type,
      secrets_revealed: revealed,
      relay: relayRecipe(row, proxy),
    });
  }
}
