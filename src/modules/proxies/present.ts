// Proxy rows as API records. The password column never leaves through here.
import type { Selectable } from 'kysely';
import type { ProxiesTable } from '../../db/schema.js';
import { toIso } from '../../lib/clock.js';
import { compact } from '../../lib/compact.js';
import type { Targeting } from './schemas.js';

export type ProxyRow = Selectable<ProxiesTable>;

export function targetingOf(row: Pick<ProxyRow, 'targeting'>): Targeting {
  return row.targeting ? (JSON.parse(row.targeting) as Targeting) : {};
}

export function presentProxy(row: ProxyRow) {
  return compact({
    id: row.id,
    mode: row.mode,
    label: row.label,
    scheme: row.scheme,
    host: row.host,
    port: row.port,
    username: row.username || null,
    session_type: row.session_type,
    gateway: row.gateway,
    targeting: row.gateway ? targetingOf(row) : null,
    status: row.status,
    last_check_at: toIso(row.last_check_at),
    last_exit_ip: row.last_exit_ip,
    last_exit_country: row.last_exit_country,
    last_latency_ms: row.last_latency_ms,
    last_error: row.last_error,
    created_at: toIso(row.created_at),
  });
}
