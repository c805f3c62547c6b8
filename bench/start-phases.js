#!/usr/bin/env node
// Where `serve`'s start-up goes (issue 34 point 4): its first phases timed one after another in
// one process, from the built dist/ (run `npm run build` first): importing the config, importing
// the app with the database, migrations and runs-thread modules, opening a fresh SQLite file and
// migrating it, building the app and listening. Usage: node bench/start-phases.js
import { mkdtempSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
const t = [performance.now()];
const mark = (name) => { const now = performance.now(); console.log(name.padEnd(36), (now - t[t.length - 1]).toFixed(0), 'ms'); t.push(now); };
process.env.DATA_DIR = mkdtempSync(join(tmpdir(), 'phases-'));
process.env.LOG_LEVEL = 'warn';
const root = new URL('..', import.meta.url).href.replace(/\/$/, '');
const { loadConfig, withSecretKey } = await import(`${root}/dist/config.js`); mark('import config');
const [{ buildApp }, { openDatabase, sqliteFileIn }, { migrateToLatest }] = await Promise.all([import(`${root}/dist/app.js`), import(`${root}/dist/db/database.js`), import(`${root}/dist/db/migrate.js`), import(`${root}/dist/db/redis.js`), import(`${root}/dist/runs-thread/runs-thread.js`)]);
mark('import app, db, runs thread');
const loaded = loadConfig();
const db = openDatabase({ sqliteFile: sqliteFileIn(loaded.dataDir) }); mark('open database');
await migrateToLatest(db); mark('migrate (fresh file)');
const { systemClock } = await import(`${root}/dist/lib/clock.js`);
const app = await buildApp({ config: withSecretKey(loaded), db, clock: systemClock }); mark('build app');
await app.listen({ port: 0, host: '127.0.0.1' }); mark('listen');
console.log('load', loadavg().map((v) => v.toFixed(2)).join(' '));
process.exit(0);
