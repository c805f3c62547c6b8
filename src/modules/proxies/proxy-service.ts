// Proxies: create, list, read, update, delete and bulk import, always filtered by owner.
// Managed proxies (granted by the operator) are readable but not changeable by the user.
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { CallOrigin, ServiceContext } from '../../core/context.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../core/errors.js';
import { offsetOf, pageOf, pageRequest } from '../../core/paging.js';
import type { IdInput } from '../../core/schema.js';
import type { Gateway, ProxyMode, SessionType } from '../../core/values.js';
import type { Database, ProxiesTable } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { accountExists } from '../accounts/index.js';
import { IMPORT_MAX_LINES, identityOf, maskLine, normaliseHost, type ParsedProxy, parseProxyLine } from './import-parser.js';
import { presentProxy, type ProxyRow } from './present.js';
import type { CreateProxyInput, ImportInput, ProxyListInput, Targeting, UpdateProxyInput } from './schemas.js';
import type { ProxySecrets } from './secrets.js';

type Db = Kysely<Database> | Transaction<Database>;

const NOT_FOUND = 'No proxy with this id.';

const managedProxyError = () =>
  new ForbiddenError('managed_proxy', 'This proxy is provided by the operator; it can be read, assigned and validated but not changed or deleted.');

/** The caller's proxy (own or managed); another account's answers 404 like a missing one. */
export async function findOwnedProxy(db: Db, userId: number, proxyId: number): Promise<ProxyRow> {
  const row = await db.selectFrom('proxies').selectAll().where('id', '=', proxyId).where('user_id', '=', userId).executeTakeFirst();
  if (!row) throw new NotFoundError(NOT_FOUND);
  return row;
}

function targetingFrom(input: CreateProxyInput): Targeting {
  const upper = (codes?: string[]) => (codes?.length ? codes.map((c) => c.toUpperCase()) : undefined);
  const targeting: Targeting = {
    countries: upper(input.target_countries),
    exclude_countries: upper(input.exclude_countries),
    state: input.target_state,
    city: input.target_city,
    zip: input.target_zip,
    asn: input.target_asn,
    exclude_asn: input.exclude_asn?.length ? input.exclude_asn : undefined,
  };
  return Object.fromEntries(Object.entries(targeting).filter(([, v]) => v !== undefined)) as Targeting;
}

export class ProxyService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly secrets: ProxySecrets,
  ) {}

  /** A new proxy's row: unchecked, its password sealed. */
  private row(
    userId: number,
    mode: ProxyMode,
    proxy: ParsedProxy & { label?: string | null; session_type?: SessionType; gateway?: Gateway | null; targeting?: Targeting },
  ): Insertable<ProxiesTable> {
    const now = this.clock.now();
    const gateway = proxy.gateway ?? null;
    return {
      user_id: userId,
      mode,
      label: proxy.label ?? null,
      scheme: proxy.scheme,
      host: proxy.host,
      port: proxy.port,
      username: proxy.username,
      password_enc: this.secrets.seal(proxy.password),
      session_type: proxy.session_type ?? 'sticky',
      gateway,
      // A plain proxy ignores targeting (service-api.md); a gateway proxy always has an object.
      targeting: gateway ? JSON.stringify(proxy.targeting ?? {}) : null,
      status: 'unchecked',
      last_check_at: null,
      last_exit_ip: null,
      last_exit_country: null,
      last_exit_city: null,
      last_exit_asn: null,
      last_latency_ms: null,
      last_error: null,
      created_at: now,
      updated_at: now,
    };
  }

  create(ctx: ServiceContext, input: CreateProxyInput) {
    return this.insert(ctx.userId, input, 'byop');
  }

  private async insert(userId: number, input: CreateProxyInput, mode: ProxyMode) {
    const host = normaliseHost(input.host.trim().replace(/^\[(.*)\]$/, '$1'));
    if (!host) throw new ValidationError([{ path: 'body.host', message: 'is not a valid host name or IP address' }]);
    if (input.password && !input.username) throw new ValidationError([{ path: 'body.password', message: 'needs a username' }]);
    const parsed: ParsedProxy = { scheme: input.scheme ?? 'http', host, port: input.port, username: input.username ?? '', password: input.password ?? '' };
    const values = this.row(userId, mode, { ...parsed, label: input.label, session_type: input.session_type, gateway: input.gateway, targeting: targetingFrom(input) });
    const inserted = await this.db
      .insertInto('proxies')
      .values(values)
      .onConflict((oc) => oc.columns(['user_id', 'scheme', 'host', 'port', 'username']).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!inserted) throw new ValidationError([{ path: 'body.host', message: 'duplicates a stored proxy (same scheme, host, port and username)' }]);
    return presentProxy(inserted);
  }

  async list(ctx: ServiceContext, filter: ProxyListInput) {
    const page = pageRequest(filter);
    let query = this.db.selectFrom('proxies').where('user_id', '=', ctx.userId);
    if (filter.mode) query = query.where('mode', '=', filter.mode);
    if (filter.status) query = query.where('status', '=', filter.status);
    const [{ total }, rows] = await Promise.all([
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      query.selectAll().orderBy('id').limit(page.pageSize).offset(offsetOf(page)).execute(),
    ]);
    return pageOf(page, Number(total), rows.map(presentProxy));
  }

  async read(ctx: ServiceContext, { id }: IdInput) {
    return presentProxy(await findOwnedProxy(this.db, ctx.userId, id));
  }

  /** The user's own proxies only: a managed one answers 403 `managed_proxy`. */
  async update(ctx: ServiceContext, { id: proxyId, ...input }: IdInput & UpdateProxyInput) {
    const { userId } = ctx;
    const row = await findOwnedProxy(this.db, userId, proxyId);
    if (row.mode !== 'byop') throw managedProxyError();
    const set: { label?: string | null; targeting?: string; updated_at: number } = { updated_at: this.clock.now() };
    if (input.label !== undefined) set.label = input.label;
    // Replaces the whole object; a plain proxy has none to replace.
    if (input.targeting !== undefined && row.gateway) set.targeting = JSON.stringify(input.targeting);
    const updated = await this.db.updateTable('proxies').set(set).where('id', '=', proxyId).where('user_id', '=', userId).returningAll().executeTakeFirstOrThrow();
    return presentProxy(updated);
  }

  /** The user's own proxies only: a managed one answers 403 `managed_proxy`. */
  async remove(ctx: ServiceContext, { id: proxyId }: IdInput): Promise<void> {
    if (!(await this.deleteRow(ctx.userId, proxyId, 'byop'))) {
      // Told apart only after the delete missed, so the common case stays one statement.
      const row = await findOwnedProxy(this.db, ctx.userId, proxyId);
      if (row.mode !== 'byop') throw managedProxyError();
      throw new NotFoundError(NOT_FOUND);
    }
  }

  /** The operator: a managed proxy of any account. */
  async removeManaged(_origin: CallOrigin, { id: proxyId }: IdInput): Promise<void> {
    const row = await this.db.selectFrom('proxies').select('user_id').where('id', '=', proxyId).where('mode', '=', 'managed').executeTakeFirst();
    if (!row || !(await this.deleteRow(row.user_id, proxyId, 'managed'))) throw new NotFoundError('No managed proxy with this id.');
  }

  private async deleteRow(userId: number, proxyId: number, mode: ProxyMode): Promise<boolean> {
    // Assignments go with the proxy (ON DELETE CASCADE): deleting ends them.
    const result = await this.db.deleteFrom('proxies').where('id', '=', proxyId).where('user_id', '=', userId).where('mode', '=', mode).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The operator grants a managed proxy to the user `id`. */
  async grantManaged(_origin: CallOrigin, { id: userId, ...input }: IdInput & CreateProxyInput) {
    if (!(await accountExists(this.db, userId))) throw new NotFoundError('No user with this id.');
    return this.insert(userId, input, 'managed');
  }

  async import(ctx: ServiceContext, { proxies: text }: ImportInput) {
    const { userId } = ctx;
    const lines = text.split(/\r\n|\n|\r/);
    if (lines.length > IMPORT_MAX_LINES) {
      throw new ValidationError([{ path: 'body.proxies', message: `has ${lines.length} lines; at most ${IMPORT_MAX_LINES} per request` }]);
    }
    const stored = await this.db.selectFrom('proxies').select(['scheme', 'host', 'port', 'username']).where('user_id', '=', userId).execute();
    const known = new Set(stored.map(identityOf));
    const errors: { line: number; raw: string; reason: string }[] = [];
    const batch: { line: number; raw: string; proxy: ParsedProxy }[] = [];
    const inBatch = new Map<string, number>();
    lines.forEach((text, index) => {
      const line = index + 1;
      const result = parseProxyLine(text);
      if (result.kind === 'skip') return;
      if (result.kind === 'error') return void errors.push({ line, raw: maskLine(text), reason: result.reason });
      const identity = identityOf(result.proxy);
      if (known.has(identity)) return void errors.push({ line, raw: maskLine(text), reason: 'duplicates a stored proxy (same scheme, host, port and username)' });
      const first = inBatch.get(identity);
      if (first !== undefined) return void errors.push({ line, raw: maskLine(text), reason: `duplicates line ${first} of this import` });
      inBatch.set(identity, line);
      batch.push({ line, raw: text, proxy: result.proxy });
    });
    const created: ProxyRow[] = [];
    for (let start = 0; start < batch.length; start += 500) {
      const chunk = batch.slice(start, start + 500);
      const rows = await this.db
        .insertInto('proxies')
        .values(chunk.map((entry) => this.row(userId, 'byop', entry.proxy)))
        // A concurrent request may have stored the same proxy since we read: reported below.
        .onConflict((oc) => oc.columns(['user_id', 'scheme', 'host', 'port', 'username']).doNothing())
        .returningAll()
        .execute();
      const inserted = new Set(rows.map(identityOf));
      for (const entry of chunk) {
        if (!inserted.has(identityOf(entry.proxy))) errors.push({ line: entry.line, raw: maskLine(entry.raw), reason: 'duplicates a stored proxy (same scheme, host, port and username)' });
      }
      created.push(...rows);
    }
    errors.sort((a, b) => a.line - b.line);
    return { created_count: created.length, error_count: errors.length, created: created.sort((a, b) => a.id - b.id).map(presentProxy), errors };
  }
}
