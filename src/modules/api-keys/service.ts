// API key management for the signed-in application: create (returns the secret once),
// list every key newest first, and revoke (immediate in every process).
import type { Kysely, Selectable } from 'kysely';
import type { DialectName } from '../../db/database.js';
import { lockUserRow } from '../../db/locks.js';
import type { ApiKeysTable, Database } from '../../db/schema.js';
import { LimitReachedError, NotFoundError, SubscriptionRequiredError } from '../../core/errors.js';
import { type Clock, toIso } from '../../lib/clock.js';
import { isSubscriptionActive, loadSubscription } from '../billing/index.js';
import type { IdInput } from '../../core/schema.js';
import { expiryFor, generateKey, keyState } from './key-format.js';
import type { KeyResolver } from './key-resolver.js';
import type { LastUsedRecorder } from './last-used.js';
import type { CreateKeyInput } from './schemas.js';
import type { Scope, ServiceContext } from '../../core/context.js';

export const MAX_ACTIVE_KEYS = 25;

const KEY_COLUMNS = ['id', 'name', 'prefix', 'scopes', 'created_at', 'expires_at', 'revoked_at', 'last_used_at'] as const;

/** A key as listed: never its hash. */
type KeyRow = Pick<Selectable<ApiKeysTable>, (typeof KEY_COLUMNS)[number]>;

export function presentKey(row: KeyRow, now: number) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    state: keyState(row, now),
    scopes: JSON.parse(row.scopes) as Scope[],
    created_at: toIso(row.created_at),
    expires_at: toIso(row.expires_at),
    last_used_at: toIso(row.last_used_at),
    revoked_at: toIso(row.revoked_at),
  };
}

export class ApiKeyService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
    private readonly clock: Clock,
    private readonly resolver: KeyResolver,
    private readonly lastUsed: LastUsedRecorder,
  ) {}

  async create(ctx: ServiceContext, input: CreateKeyInput) {
    const { userId } = ctx;
    const now = this.clock.now();
    if (!isSubscriptionActive(await loadSubscription(this.db, userId), now)) throw new SubscriptionRequiredError();
    const scopes = [...new Set(input.scopes ?? [])];
    const { key, hash, prefix } = generateKey();
    const row = await this.db.transaction().execute(async (trx) => {
      // Counting and inserting under the user's lock keeps two concurrent creates from
      // both taking the 25th slot.
      await lockUserRow(trx, this.dialect, userId);
      const { active } = await trx
        .selectFrom('api_keys')
        .select((eb) => eb.fn.countAll<number>().as('active'))
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
        .executeTakeFirstOrThrow();
      if (Number(active) >= MAX_ACTIVE_KEYS) {
        throw new LimitReachedError(
          'key_limit_reached',
          `You already have ${MAX_ACTIVE_KEYS} active API keys, the most an account may hold. Revoke one before creating another.`,
          MAX_ACTIVE_KEYS,
        );
      }
      return trx
        .insertInto('api_keys')
        .values({
          user_id: userId,
          name: input.name.trim(),
          key_hash: hash,
          prefix,
          scopes: JSON.stringify(scopes),
          created_at: now,
          expires_at: expiryFor(input.expires_in ?? '90d', now),
          revoked_at: null,
          last_used_at: null,
        })
        .returning(KEY_COLUMNS)
        .executeTakeFirstOrThrow();
    });
    return { key, api_key: presentKey(row, now) };
  }

  async list(ctx: ServiceContext) {
    await this.lastUsed.flush();
    const rows = await this.db.selectFrom('api_keys').select(KEY_COLUMNS).where('user_id', '=', ctx.userId).orderBy('id', 'desc').execute();
    const now = this.clock.now();
    return { items: rows.map((row) => presentKey(row, now)) };
  }

  /** Revoking an already revoked key answers the same record. */
  async revoke(ctx: ServiceContext, { id: keyId }: IdInput) {
    const { userId } = ctx;
    const now = this.clock.now();
    await this.db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', keyId).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
    await this.lastUsed.flush();
    const row = await this.db.selectFrom('api_keys').select(KEY_COLUMNS).where('id', '=', keyId).where('user_id', '=', userId).executeTakeFirst();
    if (!row) throw new NotFoundError('No API key with this id.');
    await this.resolver.invalidate();
    return presentKey(row, now);
  }
}
