// Ordered migrations, applied at start-up and by `svc migrate`, strictly in name order: a
// database that has run a later migration refuses to start with an earlier one missing
// (Kysely's default). A new migration takes the next number. Each migration is built for
// the dialect at hand, so both engines get native column types.
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Db, DialectName } from './database.js';
import { accounts } from './migrations/0001_accounts.js';
import { resources } from './migrations/0002_resources.js';
import { codeSync } from './migrations/0003_code_sync.js';
import { webhooks } from './migrations/0004_webhooks.js';
import { proxies } from './migrations/0005_proxies.js';
import { runCounts } from './migrations/0006_run_counts.js';
import { deviceHosts } from './migrations/0007_device_hosts.js';
import { cloudRuns } from './migrations/0008_cloud_runs.js';
import { deviceLeases } from './migrations/0009_device_leases.js';
import { deviceLifecycle } from './migrations/0010_device_lifecycle.js';
import { mcpTokens } from './migrations/0011_mcp_tokens.js';
import { namedLocks } from './migrations/0012_named_locks.js';
import { placementRestore } from './migrations/0013_placement_restore.js';
import { schedules } from './migrations/0014_schedules.js';
import { imageLibrary } from './migrations/0015_image_library.js';
import { menuMaps } from './migrations/0016_menu_maps.js';
import { marketplace } from './migrations/0017_marketplace.js';
import { authoring } from './migrations/0018_authoring.js';
import { marketplaceImages } from './migrations/0019_marketplace_images.js';
import { runCountShards } from './migrations/0020_run_count_shards.js';
import { occurrenceStarts } from './migrations/0021_occurrence_starts.js';
import { listingSearchCounts } from './migrations/0022_listing_search_counts.js';
import { listingWalkCovering } from './migrations/0023_listing_walk_covering.js';
import { listingPrefixIndex } from './migrations/0024_listing_prefix_index.js';
import { idempotencyKeys } from './migrations/0026_idempotency_keys.js';
import { runTraces } from './migrations/0027_run_traces.js';
import { recordings } from './migrations/0028_recordings.js';
import { sharedTraceFrames } from './migrations/0029_shared_trace_frames.js';

export type DialectMigration = (dialect: DialectName) => Migration;

/** In name order; the next one is 0030 (0025 is reserved for another branch: Kysely needs order, not an unbroken sequence). */
const MIGRATIONS: Record<string, DialectMigration> = {
  '0001_accounts': accounts,
  '0002_resources': resources,
  '0003_code_sync': codeSync,
  '0004_webhooks': webhooks,
  '0005_proxies': proxies,
  '0006_run_counts': runCounts,
  '0007_device_hosts': deviceHosts,
  '0008_cloud_runs': cloudRuns,
  '0009_device_leases': deviceLeases,
  '0010_device_lifecycle': deviceLifecycle,
  '0011_mcp_tokens': mcpTokens,
  '0012_named_locks': namedLocks,
  '0013_placement_restore': placementRestore,
  '0014_schedules': schedules,
  '0015_image_library': imageLibrary,
  '0016_menu_maps': menuMaps,
  '0017_marketplace': marketplace,
  '0018_authoring': authoring,
  '0019_marketplace_images': marketplaceImages,
  '0020_run_count_shards': runCountShards,
  '0021_occurrence_starts': occurrenceStarts,
  '0022_listing_search_counts': listingSearchCounts,
  '0023_listing_walk_covering': listingWalkCovering,
  '0024_listing_prefix_index': listingPrefixIndex,
  '0026_idempotency_keys': idempotencyKeys,
  '0027_run_traces': runTraces,
  '0028_recordings': recordings,
  '0029_shared_trace_frames': sharedTraceFrames,
};

class ListProvider implements MigrationProvider {
  constructor(private readonly dialect: DialectName) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return Object.fromEntries(Object.entries(MIGRATIONS).map(([name, build]) => [name, build(this.dialect)]));
  }
}

async function migratorFor(db: Db): Promise<Migrator> {
  // Kysely looks for its bookkeeping tables in every schema of a PostgreSQL database; pin
  // them to the schema this connection writes to, so another schema's tables (another app,
  // or a parallel test run) are never mistaken for ours.
  let migrationTableSchema: string | undefined;
  if (db.dialect === 'postgres') {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db.kysely);
    migrationTableSchema = rows[0]?.schema;
  }
  return new Migrator({
    db: (db.dialect === 'postgres' ? withOwnSchemaIntrospection(db.kysely) : db.kysely) as Kysely<unknown>,
    provider: new ListProvider(db.dialect),
    migrationTableSchema,
  });
}

/**
 * The Kysely handle the migrator gets on PostgreSQL: the same connection pool, but its
 * introspection (the migrator asks only whether its own schema and tables exist) reads this
 * connection's schema alone. Kysely's own lists every table and column of every schema, and
 * another process creating or dropping a schema meanwhile fails that listing in ways no retry
 * list covers (42P01, 3F000, 42703 seen in CI with parallel test files). Reading only our own
 * schema, nothing another process does to its schema can fail it, so `migrateToLatest` has
 * no retry (test/db/migrate-beside-other-schemas.test.ts).
 */
function withOwnSchemaIntrospection(kysely: Db['kysely']): Db['kysely'] {
  const introspection = {
    async getSchemas() {
      const { rows } = await sql<{ name: string }>`select current_schema() as name`.execute(kysely);
      return rows;
    },
    async getTables() {
      const { rows } = await sql<{ name: string; schema: string }>`
        select table_name as name, table_schema as schema from information_schema.tables where table_schema = current_schema()`.execute(kysely);
      return rows.map((row) => ({ ...row, isView: false, columns: [] }));
    },
    async getMetadata() {
      return { tables: await this.getTables() };
    },
  };
  return new Proxy(kysely, {
    get(target, property) {
      if (property === 'introspection') return introspection;
      const value: unknown = Reflect.get(target, property, target);
      // Kysely's methods use private fields: they must run on the real instance, not the proxy.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  const { error, results } = await (await migratorFor(db)).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Runs the migrations up to and including `name` (tests of a later migration's data step). */
export async function migrateUpTo(db: Db, name: string): Promise<void> {
  const { error } = await (await migratorFor(db)).migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

export async function pendingMigrations(db: Db): Promise<string[]> {
  const all = await (await migratorFor(db)).getMigrations();
  return all.filter((m) => m.executedAt === undefined).map((m) => m.name);
}
