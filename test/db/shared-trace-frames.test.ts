// Trace frames stored once for every trace (migration 0029): the frames traces kept before
// the migration are still each trace's, readable through the store, with each picture kept
// once; and the foreign key keeps a picture a trace shows from being deleted.
import { afterAll, expect, test } from 'vitest';
import pg from 'pg';
import { openDatabase, type Db } from '../../src/db/database.js';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrate.js';
import { readFrame, readFrames } from '../../src/modules/runs/trace/store.js';
import { dropStorage, newStorage } from '../helpers/app.js';
import { TEST_DATABASE_URL } from '../helpers/engine.js';

const storage = newStorage();
let db: Db | undefined;
afterAll(async () => {
  await db?.close();
  await dropStorage(storage);
});

const jpeg = (text: string) => Buffer.from(`\xff\xd8${text}\xff\xd9`, 'latin1');

test("traces' frames survive the migration, each picture kept once", async () => {
  if (storage.pgSchema) {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    await client.query(`create schema ${storage.pgSchema}`);
    await client.end();
  }
  db = openDatabase({ databaseUrl: TEST_DATABASE_URL, sqliteFile: ':memory:', pgSchema: storage.pgSchema });
  await migrateUpTo(db, '0028_recordings');
  const k = db.kysely;
  const { id: userId } = await k.insertInto('users').values({ email: 'frames@example.com', name: null, password_hash: 'x', created_at: 1, disabled_at: null } as never).returning('id').executeTakeFirstOrThrow();
  const pks: number[] = [];
  for (const n of [1, 2]) {
    const { id } = await k
      .insertInto('executions')
      .values({ user_id: userId, execution_id: `ex-${n}`, status: 'completed', execution_type: 'python', started_at: 1, created_at: 1, updated_at: 1 } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    pks.push(Number(id));
    await k.insertInto('run_traces').values({ execution_pk: id, user_id: userId, run_id: n, started_ms: 1, created_at: 1 }).execute();
  }
  // The home screen in both traces (one copy each, as 0027 kept them), a detail screen in the second.
  const old = (pk: number, id: string, bytes: Buffer) => ({ execution_pk: pk, frame_id: id, content: bytes, size_bytes: bytes.length, created_at: 1 });
  await k
    .insertInto('run_trace_frames')
    .values([old(pks[0]!, 'fr_home', jpeg('home')), old(pks[1]!, 'fr_home', jpeg('home')), old(pks[1]!, 'fr_detail', jpeg('detail'))] as never)
    .execute();

  await migrateToLatest(db);
  expect((await k.selectFrom('run_trace_pictures').select(['frame_id', 'size_bytes']).orderBy('frame_id').execute()).map((r) => [r.frame_id, Number(r.size_bytes)])).toEqual([
    ['fr_detail', jpeg('detail').length],
    ['fr_home', jpeg('home').length],
  ]);
  expect([...(await readFrames(k, pks[0]!)).keys()]).toEqual(['fr_home']);
  expect(await readFrame(k, pks[1]!, 'fr_detail')).toEqual(jpeg('detail'));
  expect(await readFrame(k, pks[1]!, 'fr_home')).toEqual(jpeg('home'));
  // A trace never reads a frame it does not show, though the picture is stored.
  expect(await readFrame(k, pks[0]!, 'fr_detail')).toBeUndefined();
  // Shown by a trace: the picture cannot go; once no trace shows it, it can.
  await expect(k.deleteFrom('run_trace_pictures').where('frame_id', '=', 'fr_detail').execute()).rejects.toThrow();
  await k.deleteFrom('run_traces').where('execution_pk', '=', pks[1]!).execute();
  await k.deleteFrom('run_trace_pictures').where('frame_id', '=', 'fr_detail').execute();
  expect(await readFrame(k, pks[0]!, 'fr_home')).toEqual(jpeg('home'));
});
