// Each stored set of allowed values is one list (core/values.ts) that also feeds a CHECK
// constraint: the database itself takes every value of the list and refuses anything else,
// on both engines.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as values from '../../src/core/values.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  const k = t.db.kysely;
  const now = t.clock.now();
  const one = <T extends { id: number }>(row: T | undefined) => row!.id;
  ids.users = one(await k.insertInto('users').values({ email: 'checks@example.com', name: null, password_hash: 'x', created_at: now, disabled_at: null }).returning('id').executeTakeFirst());
  const user_id = ids.users;
  await k.insertInto('subscriptions').values({ user_id, status: 'trialing', plan: null, trial_ends_at: now, current_period_end: null, updated_at: now }).execute();
  ids.macros = one(await k.insertInto('macros').values({ user_id, name: 'm', kind: 'python', description: null, blocks: null, created_at: now, updated_at: now }).returning('id').executeTakeFirst());
  ids.device_groups = one(await k.insertInto('device_groups').values({ user_id, name: 'g', description: null, kind: 'byod', created_at: now, updated_at: now }).returning('id').executeTakeFirst());
  ids.macro_setting_profiles = one(
    await k.insertInto('macro_setting_profiles').values({ user_id, macro_id: ids.macros, name: 'p', args: '{}', is_default: 0, created_at: now, updated_at: now }).returning('id').executeTakeFirst(),
  );
  ids.devices = one(
    await k
      .insertInto('devices')
      .values({ user_id, name: 'd', port: 5555, is_hosted: 0, hosted_state: null, group_id: null, macro_id: null, profile_id: null, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirst(),
  );
  const run = { user_id, execution_id: 'e1', status: 'running' as const, macro_id: null, macro_name: null, device_id: null, device_name: null, device_port: null, group_id: null };
  ids.executions = one(
    await k
      .insertInto('executions')
      .values({ ...run, execution_type: 'python', started_at: now, ended_at: null, duration_ms: null, exit_code: null, error_message: null, proxy_exit_ip: null, proxy_country: null, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirst(),
  );
  await k.insertInto('run_counts').values({ user_id, status: 'running', n: 1 }).execute();
  const endpoint = { user_id, url: 'https://example.com/', description: null, event_types: '["*"]', secret_encrypted: 'x', secret_prefix: 'whsec_x', scope_mode: 'all' as const };
  ids.webhook_endpoints = one(
    await k
      .insertInto('webhook_endpoints')
      .values({ ...endpoint, scope_group_ids: '[]', scope_device_ids: '[]', enabled: 1, first_failure_at: null, disabled_reason: null, last_success_at: null, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirst(),
  );
  const event = one(await k.insertInto('events').values({ user_id, event_id: 'evt_1', type: 'webhook.test', device_id: null, payload: '{}', created_at: now }).returning('id').executeTakeFirst());
  ids.webhook_deliveries = one(
    await k
      .insertInto('webhook_deliveries')
      .values({ user_id, endpoint_id: ids.webhook_endpoints, event_pk: event, event_id: 'evt_1', event_type: 'webhook.test', status: 'pending', next_attempt_at: now, locked_until: null, locked_by: null, last_status_code: null, last_error: null, last_response_body: null, delivered_at: null, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirst(),
  );
  const proxy = { user_id, mode: 'byop' as const, label: null, scheme: 'http' as const, host: 'p.example.com', port: 8080, username: '', password_enc: null, session_type: 'sticky' as const, gateway: null, targeting: null };
  const checked = { last_check_at: null, last_exit_ip: null, last_exit_country: null, last_exit_city: null, last_exit_asn: null, last_latency_ms: null, last_error: null };
  ids.proxies = one(await k.insertInto('proxies').values({ ...proxy, status: 'unchecked', ...checked, created_at: now, updated_at: now }).returning('id').executeTakeFirst());
  ids.proxy_assignments = one(
    await k
      .insertInto('proxy_assignments')
      .values({ user_id, proxy_id: ids.proxies, device_id: ids.devices, session_type: 'sticky', session_id: null, active: 1, created_at: now, ended_at: null })
      .returning('id')
      .executeTakeFirst(),
  );
  const exploration = { user_id, device_id: null, package: 'com.example.shop', state_message: null, max_screens: 50, max_minutes: 10, do_not_touch: '[]', lease_id: null, locked_until: null, locked_by: null };
  ids.map_explorations = one(await k.insertInto('map_explorations').values({ ...exploration, state: 'queued', created_at: now, started_at: null, finished_at: null, updated_at: now }).returning('id').executeTakeFirst());
});
afterAll(() => t.close());

/** [table, column, its list]; the row is found by `id`, or by `user_id` where the table has no id. */
const CHECKED: [string, string, readonly (string | number)[]][] = [
  ['subscriptions', 'status', values.SUBSCRIPTION_STATUSES],
  ['macros', 'kind', values.MACRO_KINDS],
  ['device_groups', 'kind', values.GROUP_KINDS],
  ['devices', 'hosted_state', values.HOSTED_STATES],
  ['devices', 'is_hosted', values.FLAG_VALUES],
  ['macro_setting_profiles', 'is_default', values.FLAG_VALUES],
  ['executions', 'status', values.RUN_STATUSES],
  ['executions', 'execution_type', values.EXECUTION_TYPES],
  ['run_counts', 'status', values.RUN_STATUSES],
  ['webhook_endpoints', 'scope_mode', values.WEBHOOK_SCOPE_MODES],
  ['webhook_endpoints', 'enabled', values.FLAG_VALUES],
  ['webhook_endpoints', 'disabled_reason', values.ENDPOINT_DISABLED_REASONS],
  ['webhook_deliveries', 'status', values.DELIVERY_STATUSES],
  ['proxies', 'mode', values.PROXY_MODES],
  ['proxies', 'scheme', values.PROXY_SCHEMES],
  ['proxies', 'session_type', values.SESSION_TYPES],
  ['proxies', 'gateway', values.GATEWAYS],
  ['proxies', 'status', values.PROXY_STATUSES],
  ['proxies', 'last_error', values.PROXY_CHECK_ERRORS],
  ['proxy_assignments', 'session_type', values.SESSION_TYPES],
  ['proxy_assignments', 'active', values.FLAG_VALUES],
  ['map_explorations', 'state', values.EXPLORATION_STATES],
];

function setColumn(table: string, column: string, value: string | number) {
  const key = table in ids ? sql`id = ${ids[table]}` : sql`user_id = ${ids.users}`;
  return sql`update ${sql.table(table)} set ${sql.ref(column)} = ${value} where ${key}`.execute(t.db.kysely);
}

describe('CHECK constraints from the value lists', () => {
  test.each(CHECKED)('%s.%s takes every listed value and refuses another', async (table, column, list) => {
    for (const value of list) await setColumn(table, column, value);
    const outsider = typeof list[0] === 'number' ? 2 : 'not-a-listed-value';
    await expect(setColumn(table, column, outsider)).rejects.toThrow(/check/i);
  });
});
