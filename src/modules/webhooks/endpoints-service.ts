// Webhook endpoints of one account: at most 10, each with an encrypted signing secret that
// is shown once, a subscription (event patterns) and a scope (all, groups or devices).
import type { Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { DialectName } from '../../db/database.js';
import { lockUserRow } from '../../db/locks.js';
import type { Database, WebhookEndpointsTable } from '../../db/schema.js';
import type { ServiceContext } from '../../core/context.js';
import { type FieldError, LimitReachedError, NotFoundError, ValidationError } from '../../core/errors.js';
import type { IdInput } from '../../core/schema.js';
import type { AddressPolicy } from '../../lib/address-policy.js';
import { type Clock, toIso } from '../../lib/clock.js';
import { compact } from '../../lib/compact.js';
import { encryptSecret } from '../../lib/crypto.js';
import { countDevices, ownedDeviceIds, ownedGroupIds } from '../devices/index.js';
import type { EmitEvent } from '../events/index.js';
import { scopeOf } from './fan-out.js';
import { failPendingDeliveries } from './queue.js';
import { newSigningSecret, type Scope, SECRET_PREFIX_LENGTH } from './rules.js';
import { type CreateEndpointInput, ENDPOINT_LIMIT, type UpdateEndpointInput } from './schemas.js';
import { checkEndpointUrl } from './url-rules.js';

type Db = Kysely<Database> | Transaction<Database>;
type EndpointRow = Selectable<WebhookEndpointsTable>;

/** What a create or an update may send; the scope rules read both alike. */
type EndpointInput = CreateEndpointInput | UpdateEndpointInput;

const SECRET_WARNING = 'Store this signing secret now: it is not shown again. Regenerate it if it is lost.';

export interface EndpointServiceOptions {
  /** SECRET_KEY: signing secrets are encrypted with it, since signing needs them back. */
  secretKey: Buffer;
  addressPolicy: AddressPolicy;
}

export class WebhookEndpointService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
    private readonly clock: Clock,
    private readonly options: EndpointServiceOptions,
    private readonly emit: EmitEvent,
  ) {}

  async list(ctx: ServiceContext) {
    const rows = await this.db.selectFrom('webhook_endpoints').selectAll().where('user_id', '=', ctx.userId).orderBy('id').execute();
    const items = await Promise.all(rows.map((row) => this.present(this.db, row)));
    return { items, total: items.length };
  }

  async get(ctx: ServiceContext, { id }: IdInput) {
    return this.present(this.db, await findEndpoint(this.db, ctx.userId, id));
  }

  async create(ctx: ServiceContext, input: CreateEndpointInput) {
    const { userId } = ctx;
    const url = await checkEndpointUrl(input.url, this.options.addressPolicy);
    const secret = newSigningSecret();
    const sealed = encryptSecret(secret, this.options.secretKey);
    const now = this.clock.now();
    const endpoint = await this.db.transaction().execute(async (trx) => {
      // The user row lock serialises creates, so two at once cannot both be the 10th.
      await lockUserRow(trx, this.dialect, userId);
      const { count } = await trx.selectFrom('webhook_endpoints').select((eb) => eb.fn.countAll<number>().as('count')).where('user_id', '=', userId).executeTakeFirstOrThrow();
      if (Number(count) >= ENDPOINT_LIMIT) {
        throw new LimitReachedError('endpoint_limit_reached', `An account can have at most ${ENDPOINT_LIMIT} webhook endpoints. Delete one to add another.`, ENDPOINT_LIMIT);
      }
      const scope = await checkScope(trx, userId, input, { mode: 'all' });
      const row = await trx
        .insertInto('webhook_endpoints')
        .values({
          user_id: userId,
          url,
          description: input.description ?? null,
          event_types: JSON.stringify(input.event_types ?? ['*']),
          secret_encrypted: sealed,
          secret_prefix: secret.slice(0, SECRET_PREFIX_LENGTH),
          ...scopeColumns(scope),
          enabled: 1,
          first_failure_at: null,
          disabled_reason: null,
          last_success_at: null,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return this.present(trx, row);
    });
    return { secret, endpoint, warning: SECRET_WARNING };
  }

  async update(ctx: ServiceContext, { id, ...input }: IdInput & UpdateEndpointInput) {
    const { userId } = ctx;
    // The address is checked outside the transaction: a DNS look-up must not hold a lock.
    const url = input.url === undefined ? undefined : await checkEndpointUrl(input.url, this.options.addressPolicy);
    const now = this.clock.now();
    return this.db.transaction().execute(async (trx) => {
      const current = await findEndpoint(trx, userId, id);
      const set: Updateable<WebhookEndpointsTable> = { updated_at: now };
      if (url !== undefined) set.url = url;
      if (input.description !== undefined) set.description = input.description;
      if (input.event_types !== undefined) set.event_types = JSON.stringify(input.event_types);
      Object.assign(set, scopeColumns(await checkScope(trx, userId, input, scopeOf(current))));
      if (input.enabled === true) Object.assign(set, { enabled: 1, consecutive_failures: 0, first_failure_at: null, disabled_reason: null });
      if (input.enabled === false) {
        set.enabled = 0;
        await failPendingDeliveries(trx, id, 'The endpoint was disabled.', now);
      }
      const row = await trx.updateTable('webhook_endpoints').set(set).where('id', '=', id).where('user_id', '=', userId).returningAll().executeTakeFirstOrThrow();
      return this.present(trx, row);
    });
  }

  /** Answers the remaining list. The endpoint's deliveries stay readable; pending ones end as failed. */
  async remove(ctx: ServiceContext, { id }: IdInput) {
    await this.db.transaction().execute(async (trx) => {
      const result = await trx.deleteFrom('webhook_endpoints').where('id', '=', id).where('user_id', '=', ctx.userId).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) throw notFound();
      await failPendingDeliveries(trx, id, 'The endpoint was deleted.', this.clock.now());
    });
    return this.list(ctx);
  }

  /** The new secret signs the very next attempt: the worker reads the secret when it sends. */
  async regenerateSecret(ctx: ServiceContext, { id }: IdInput) {
    const { userId } = ctx;
    const secret = newSigningSecret();
    const row = await this.db
      .updateTable('webhook_endpoints')
      .set({ secret_encrypted: encryptSecret(secret, this.options.secretKey), secret_prefix: secret.slice(0, SECRET_PREFIX_LENGTH), updated_at: this.clock.now() })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw notFound();
    return { secret, endpoint: await this.present(this.db, row), warning: SECRET_WARNING };
  }

  async sendTest(ctx: ServiceContext, { id }: IdInput) {
    const { userId } = ctx;
    return this.db.transaction().execute(async (trx) => {
      const endpoint = await findEndpoint(trx, userId, id);
      if (endpoint.enabled !== 1) {
        return { queued: false, message: 'The endpoint is disabled, so nothing was queued. Enable it (PUT with enabled: true) and test again.' };
      }
      const data = { endpoint_id: id, message: 'A test event: your endpoint receives and verifies webhooks.' };
      const { eventId } = await this.emit(trx, { userId, type: 'webhook.test', data, deviceId: null, at: this.clock.now(), endpointId: id });
      return { queued: true, event_id: eventId, message: 'A webhook.test event was queued for this endpoint.' };
    });
  }

  private async present(db: Db, row: EndpointRow) {
    const scope = scopeOf(row);
    return compact({
      id: row.id,
      url: row.url,
      description: row.description,
      event_types: JSON.parse(row.event_types) as string[],
      secret_prefix: row.secret_prefix,
      scope_mode: row.scope_mode,
      scope_group_ids: scope.mode === 'groups' ? scope.groupIds : [],
      scope_device_ids: scope.mode === 'devices' ? scope.deviceIds : [],
      scope_device_count: await countScopeDevices(db, row.user_id, scope),
      enabled: row.enabled === 1,
      consecutive_failures: row.consecutive_failures,
      disabled_reason: row.disabled_reason,
      last_success_at: toIso(row.last_success_at),
      created_at: toIso(row.created_at),
    });
  }
}

const notFound = () => new NotFoundError('No webhook endpoint with this id.');

async function findEndpoint(db: Db, userId: number, id: number): Promise<EndpointRow> {
  const row = await db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

function scopeColumns(scope: Scope) {
  return {
    scope_mode: scope.mode,
    scope_group_ids: JSON.stringify(scope.mode === 'groups' ? scope.groupIds : []),
    scope_device_ids: JSON.stringify(scope.mode === 'devices' ? scope.deviceIds : []),
  };
}

/** Devices the scope covers now (groups and devices deleted since no longer count). */
function countScopeDevices(db: Db, userId: number, scope: Scope): Promise<number> {
  if (scope.mode === 'groups') return countDevices(db, userId, { groupIds: scope.groupIds });
  if (scope.mode === 'devices') return countDevices(db, userId, { deviceIds: scope.deviceIds });
  return countDevices(db, userId);
}

/**
 * The scope after this request. Omitting scope_mode keeps the current scope, so ids without
 * a mode are refused rather than guessed at; a narrowed scope names at least one group or
 * device, each the caller's.
 */
async function checkScope(trx: Transaction<Database>, userId: number, input: EndpointInput, current: Scope): Promise<Scope> {
  const { scope_mode: mode, scope_group_ids: groupIds, scope_device_ids: deviceIds } = input;
  const errors: FieldError[] = [];
  if (mode === undefined) {
    if (groupIds !== undefined || deviceIds !== undefined) errors.push({ path: 'body.scope_mode', message: 'is required when scope ids are sent' });
    if (errors.length) throw new ValidationError(errors);
    return current;
  }
  if (mode !== 'groups' && groupIds?.length) errors.push({ path: 'body.scope_group_ids', message: 'applies only when scope_mode is groups' });
  if (mode !== 'devices' && deviceIds?.length) errors.push({ path: 'body.scope_device_ids', message: 'applies only when scope_mode is devices' });
  if (mode === 'groups' && !groupIds?.length) errors.push({ path: 'body.scope_group_ids', message: 'must name at least one device group when scope_mode is groups' });
  if (mode === 'devices' && !deviceIds?.length) errors.push({ path: 'body.scope_device_ids', message: 'must name at least one device when scope_mode is devices' });
  if (errors.length) throw new ValidationError(errors);
  if (mode === 'groups' && groupIds) {
    const owned = await ownedGroupIds(trx, userId, groupIds);
    const missing = groupIds.findIndex((id) => !owned.has(id));
    if (missing >= 0) throw new ValidationError([{ path: `body.scope_group_ids/${missing}`, message: 'is not one of your device groups' }]);
    return { mode, groupIds };
  }
  if (mode === 'devices' && deviceIds) {
    const owned = await ownedDeviceIds(trx, userId, deviceIds);
    const missing = deviceIds.findIndex((id) => !owned.has(id));
    if (missing >= 0) throw new ValidationError([{ path: `body.scope_device_ids/${missing}`, message: 'is not one of your devices' }]);
    return { mode, deviceIds };
  }
  return { mode: 'all' };
}
