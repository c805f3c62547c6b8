// buildRunsModule(deps): the runs module's routes (the device RPC behind `svc_device`, and the
// published block-program schema) and its services (the RPC, and the executor a run worker
// calls for each claimed run). The run routes, the run job and the device lifecycle build on
// these; see docs/runs.md, "What is not wired yet".
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { createDeviceHost, type DeviceHost } from '../devices/index.js';
import { blockSchemaRoutes } from './blocks/schema-route.js';
import { type ClaimedRun, executeRun, type ExecutorDeps } from './executor/execute-run.js';
import { loadClaimedRun } from './executor/load-claimed-run.js';
import type { RunOutcome } from './outcome.js';
import { DeviceRpc } from './rpc/device-rpc.js';
import { deviceRpcRoutes } from './rpc/rpc-routes.js';
import type { PythonRunSettings } from './runner/python-run.js';
import { SDK_DIR } from './runner/sdk-dir.js';

export interface RunsModuleDeps {
  config: Config;
  db: Db;
  clock: Clock;
  /** The device host; built from the configuration (DEVICE_HOST) when not given, and closed with the module. */
  host?: DeviceHost;
  /** Where a run's `svc_device` reaches the device RPC; BASE_URL unless a test serves elsewhere. */
  baseUrl?: string;
}

/** Runs one claimed cloud run: load what it needs, execute it, answer how it ended. */
export class RunExecutor {
  constructor(private readonly deps: ExecutorDeps & { host: DeviceHost }) {}

  load(runId: number, options: Pick<ClaimedRun, 'signal' | 'onStarted' | 'proxyUrl'> = {}): Promise<ClaimedRun> {
    return loadClaimedRun(this.deps, runId, options);
  }

  execute(claimed: ClaimedRun): Promise<RunOutcome> {
    return executeRun(this.deps, claimed);
  }
}

export interface RunsServices {
  rpc: DeviceRpc;
  executor: RunExecutor;
  host: DeviceHost;
}

export function runnerSettingsOf(config: Config): PythonRunSettings {
  return { runsDir: config.runsDir, maxSeconds: config.runMaxSeconds, maxMemoryMb: config.runMaxMemoryMb, path: config.runPath, sdkDir: SDK_DIR };
}

export function buildRunsModule(deps: RunsModuleDeps): { routes: FastifyPluginAsyncTypebox; services: RunsServices; close: () => Promise<void> } {
  const { config, db, clock } = deps;
  const ownHost = deps.host === undefined;
  const host = deps.host ?? createDeviceHost(config, { db, clock });
  const rpc = new DeviceRpc({ db, clock, host });
  const executor = new RunExecutor({ db, clock, host, settings: runnerSettingsOf(config), baseUrl: deps.baseUrl ?? config.baseUrl });
  return {
    routes: async (app) => {
      await app.register(deviceRpcRoutes(rpc));
      await app.register(blockSchemaRoutes(config.baseUrl));
    },
    services: { rpc, executor, host },
    close: async () => {
      if (ownHost) await host.close();
    },
  };
}
