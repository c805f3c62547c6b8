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
import { relayPlan, stepCommand } from './relay-plan.js';
import type { ProxySecrets } from './secrets.js';

/** The relay recipe of the connection info: the plan (relay-plan.ts) with its steps as `adb` command lines. */
export function relayRecipe(assignment: Pick<AssignmentRow, 'id' | 'device_port'>, proxy: Pick<ProxyRow, 'scheme' | 'host' | 'port' | 'username'>) {
  const adb = assignment.device_port ? `adb -s 127.0.0.1:${assignment.device_port}` : 'adb';
  const plan = relayPlan(assignment, proxy);
  return {
    mode: plan.mode,
    local: plan.local,
    device_steps: plan.deviceSteps.map((step) => stepCommand(adb, step)),
    teardown: plan.teardown.map((step) => stepCommand(adb, step)),
    covers: 'HTTP and HTTPS traffic of apps that honour the system proxy; not UDP (QUIC, DNS) or apps that ignore it',
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
