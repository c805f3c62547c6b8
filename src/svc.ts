#!/usr/bin/env node
// The `svc` command line: serve | worker | migrate | admin | code | runs | devices | openapi.
// Run through main.ts, which loads its bundle (scripts/bundle-server.js).
// The server's parts are imported by the commands that use them, not at the top: `svc runs`
// and `svc devices` (clients of the API) start without loading the whole service.
import { randomBytes } from 'node:crypto';
import { type Config, ConfigError, type LoadedConfig, loadConfig, withSecretKey } from './config.js';
import type { BackgroundWorker } from './core/worker.js';
import type { Db } from './db/database.js';
import { systemClock } from './lib/clock.js';
import { CliError } from './lib/cli-error.js';
import { sameUserWarning } from './lib/run-user.js';

const USAGE = `Usage: svc <command>

Commands:
  serve                                  start the HTTP service (migrates first); also runs the
                                         background workers unless RUN_WORKERS=false
  worker                                 run only the background workers (every job kind:
                                         webhook deliveries, device lifecycle)
  migrate                                apply database migrations and exit
  admin users [--email E]                list users (calls the admin API at BASE_URL with ADMIN_TOKEN)
  admin subscription USER_ID [--status trialing|active|inactive] [--plan P]
        [--trial-ends-at T] [--current-period-end T]   (use "null" to clear a value)
  code hash DIR                          print the worktree hash of DIR, zipped as push zips it
  code push DIR --macro ID [--entry P]   upload DIR as the macro's code snapshot
                                         (SVC_API_KEY with macros:run, SVC_BASE_URL)
  runs start --device ID --macro ID [--arg name=value]... [--follow]
                                         start a cloud run; --follow prints its log as it
                                         arrives and exits 0 completed, 1 failed, 2 stopped
  runs logs EXECUTION_ID [--follow]      a run's log (the newest lines, or every line until
                                         the run ends)
  runs stop RUN                          stop a cloud run (its id or execution_id)
  runs list [--status S] [--device ID] [--macro ID] [--since T] [--until T] [--limit N | --all]
  devices list [--name T] [--group ID] [--macro ID]
                                         (runs and devices: SVC_API_KEY, SVC_BASE_URL; --json
                                         on each for scripts; 3 when the command failed)
  openapi                                print the OpenAPI document as JSON

svc COMMAND [SUBCOMMAND] --help prints that command's help (no key or token needed).
Ctrl-C ends runs, devices, code and admin with exit status 130.
`;

async function openConfiguredDatabase(config: LoadedConfig): Promise<Db> {
  const { openDatabase, sqliteFileIn } = await import('./db/database.js');
  return openDatabase({ databaseUrl: config.databaseUrl, sqliteFile: config.databaseUrl ? undefined : sqliteFileIn(config.dataDir) });
}

async function serve(config: Config): Promise<void> {
  const [{ buildApp }, { sqliteFileIn }, { migrateToLatest }, { connectRedis, redisReady }, { RunsThread, serveWorkers }, { sharedMatchPool }] = await Promise.all([
    import('./app.js'),
    import('./db/database.js'),
    import('./db/migrate.js'),
    import('./db/redis.js'),
    import('./runs-thread/runs-thread.js'),
    import('./modules/vision/index.js'),
  ]);
  // One matching pool for the process: the API's matches and, through a port, the runs thread's (decision 0025).
  const matcher = sharedMatchPool(config.visionThreads);
  const db = await openConfiguredDatabase(config);
  await migrateToLatest(db);
  const redis = config.redisUrl ? connectRedis(config.redisUrl) : undefined;
  const app = await buildApp({ config, db, clock: systemClock, redis, matcher });
  warnAboutPrivateNetworks(config, app.log);
  if (config.runWorkers) warnAboutRunUser(config, app.log);
  await (await import('./modules/runs/index.js')).announceRunSandbox(config, app.log);
  // On the embedded default this is the only process, so it must do the background work;
  // with a shared database it may leave it to separate `worker` processes (RUN_WORKERS=false).
  // Cloud runs run on a thread of their own, off the API's event loop (runs-thread/).
  const runsThread = new RunsThread({ config, sqliteFile: config.databaseUrl ? undefined : sqliteFileIn(config.dataDir), log: app.log, matcher });
  const workers: BackgroundWorker[] = config.runWorkers ? serveWorkers(app.modules, runsThread) : [];
  if (redis && !(await redisReady(redis, 5000))) {
    app.log.warn('Redis is not reachable yet: rate limits are counted per process and key look-ups go to the database until it is');
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    let code = 0;
    try {
      await app.close();
      await Promise.all(workers.map((worker) => worker.stop()));
      await matcher.close();
      await db.close();
      await redis?.quit();
    } catch (error) {
      app.log.error({ err: error }, 'shutdown did not complete cleanly');
      code = 1;
    }
    process.exit(code);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  for (const worker of workers) worker.start();
  const engine = config.databaseUrl ? 'PostgreSQL' : `SQLite (${sqliteFileIn(config.dataDir)})`;
  // With PORT=0 the system picks the port; show the one actually in use.
  const { port } = app.server.address() as { port: number };
  const base = config.port === 0 ? config.baseUrl.replace(/:0$/, `:${port}`) : config.baseUrl;
  // On stderr, so stdout stays pure JSON log lines for log shippers.
  process.stderr.write(
    `\nAutomation service is running on ${engine}${redis ? ' with Redis' : ''}.\n` +
      `  Console: ${base}/\n  API:     ${base}/api\n  Docs:    ${base}/docs\n  Health:  ${base}/healthz\n\n`,
  );
}

function warnAboutPrivateNetworks(config: LoadedConfig, log: { warn(message: string): void }): void {
  if (config.allowPrivateNetworks) {
    log.warn('WEBHOOK_ALLOW_PRIVATE_NETWORKS is true: webhooks may reach private and loopback addresses. Use it for development and tests only.');
  }
}

/** Where cloud runs execute (`worker`, or `serve` with its workers), they should not run as the service's own user. */
function warnAboutRunUser(config: Config, log: { warn(message: string): void }): void {
  const warning = config.runsEnabled ? sameUserWarning(config.runAs, process.getuid?.() ?? -1) : undefined;
  if (warning) log.warn(warning);
}

/** Background work only: any number of these run beside `serve` on a shared PostgreSQL. */
async function worker(config: Config): Promise<void> {
  const [{ default: pino }, { allModules, buildModules }, { migrateToLatest }] = await Promise.all([import('pino'), import('./build-modules.js'), import('./db/migrate.js')]);
  const log = pino({ level: config.logLevel });
  warnAboutPrivateNetworks(config, log);
  warnAboutRunUser(config, log);
  await (await import('./modules/runs/index.js')).announceRunSandbox(config, log);
  const db = await openConfiguredDatabase(config);
  db.onConnectionError((error) => log.warn({ err: error }, 'a database connection dropped; it will be replaced'));
  await migrateToLatest(db);
  // The same modules `serve` builds, for their workers only: no HTTP server, no Redis.
  const warnSharedState = (error: unknown, what: string) => log.warn({ err: error }, `shared state unavailable: ${what}`);
  const workers = allModules(buildModules({ config, db, clock: systemClock, log, warnSharedState })).flatMap((module) => module.workers ?? []);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down: finishing the work in flight');
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    let code = 0;
    try {
      await Promise.all(workers.map((w) => w.stop()));
      await db.close();
    } catch (error) {
      log.error({ err: error }, 'shutdown did not complete cleanly');
      code = 1;
    }
    process.exit(code);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  for (const w of workers) w.start();
  log.info({ engine: db.dialect, workers: workers.map((w) => w.name) }, `worker started: ${workers.map((w) => w.name).join(', ')}`);
}

async function printOpenApi(config: LoadedConfig): Promise<void> {
  const [{ buildApp }, { openDatabase }] = await Promise.all([import('./app.js'), import('./db/database.js')]);
  const db = openDatabase({ sqliteFile: ':memory:' });
  // The description needs no stored secret: a throw-away key, so no key file is made.
  const app = await buildApp({ config: { ...config, logLevel: 'silent', secretKey: randomBytes(32) }, db, clock: systemClock });
  await app.ready();
  process.stdout.write(`${JSON.stringify(app.swagger(), null, 2)}\n`);
  await app.close();
  await db.close();
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  // `svc COMMAND … --help` before any setting is read: no key, token or database needed.
  const { asksForHelp, helpFor } = await import('./cli/help.js');
  if (rest.length && asksForHelp(rest)) {
    const help = helpFor(argv);
    process.stdout.write(help === undefined ? USAGE : `${help}\n`);
    if (help === undefined) process.exitCode = 2;
    return;
  }
  if (command !== undefined && INTERRUPTIBLE.has(command)) (await import('./cli/interrupt.js')).exitOnInterrupt(process.stderr);
  const config = loadConfig();
  switch (command) {
    case 'serve':
      return serve(withSecretKey(config));
    case 'worker':
      return worker(withSecretKey(config));
    case 'migrate': {
      const { migrateToLatest } = await import('./db/migrate.js');
      const db = await openConfiguredDatabase(config);
      const applied = await migrateToLatest(db);
      await db.close();
      process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'Already up to date.\n');
      return;
    }
    case 'admin':
      return (await import('./modules/admin/index.js')).runAdminCommand(config, rest);
    case 'code':
      return (await import('./modules/code-sync/index.js')).runCodeCommand(config, rest);
    case 'runs':
    case 'devices': {
      // Loaded only here: `serve` and `worker` never load the SDK.
      const cli = await import('./cli/index.js');
      const run = command === 'runs' ? cli.runRunsCommand : cli.runDevicesCommand;
      process.exitCode = await run(config, rest, cli.processOutput());
      return;
    }
    case 'openapi':
      return printOpenApi({ ...config, baseUrl: 'http://localhost:8080' });
    default:
      process.stdout.write(USAGE);
      if (command !== undefined && command !== 'help' && !asksForHelp([command])) process.exitCode = 2;
  }
}

/** Commands a person stops with Ctrl-C, which leave with 130; serve and worker shut down gracefully on it. */
const INTERRUPTIBLE = new Set(['runs', 'devices', 'code', 'admin']);

// The key commands keep 1 and 2 for a followed run's outcome (failed, stopped): any failure
// of theirs leaves with 3.
const KEY_COMMANDS = new Set(['runs', 'devices']);
const keyCommand = KEY_COMMANDS.has(process.argv[2] ?? '');

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof CliError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(keyCommand ? 3 : error instanceof ConfigError ? 2 : error.exitCode);
  }
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(keyCommand ? 3 : 1);
});

