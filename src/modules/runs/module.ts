// buildRunsModule(deps): the runs module's routes (the cloud-run routes, the device RPC
// behind `svc_device`, the published block-program schema), its services (cloud runs, the
// RPC, the executor) and its worker (the run job). See docs/runs.md.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Config } from '../../config.js';
import type { BackgroundWorker } from '../../core/worker.js';
import type { Db } from '../../db/database.js';
import type { JobLog } from '../../db/jobs/worker.js';
import type { Clock } from '../../lib/clock.js';
import { createDeviceHost, type DeviceHost } from '../devices/index.js';
import type { EmitEvent } from '../events/index.js';
import { blockSchemaRoutes } from './blocks/schema-route.js';
import type { RunCapacity } from './cloud-runs/capacity.js';
import type { ImageFinder } from './device/image-matching.js';
import { cloudRunRoutes } from './cloud-runs/routes.js';
import { type CloudRunService, cloudRunService } from './cloud-runs/service.js';
import { type RunExecutor, runExecutor } from './executor/run-executor.js';
import type { ProxyExitCheck, RunReadiness } from './job/readiness.js';
import { cloudRunJob } from './job/run-job.js';
import { createRunWorker, type RunWorker } from './job/run-worker.js';
import { DeviceRpc } from './rpc/device-rpc.js';
import { deviceRpcRoutes } from './rpc/rpc-routes.js';
import type { PythonRunSettings } from './runner/python-run.js';
import { runSandboxStatus } from './runner/sandbox/announce.js';
import { SDK_DIR } from './runner/sdk-dir.js';
import { RunTracing } from './trace/run-tracing.js';
import { traceSweeper } from './trace/sweeper.js';
import { traceRoutes } from './trace/routes.js';
import { TraceService } from './trace/service.js';

export interface RunsModuleDeps {
  config: Config;
  db: Db;
  clock: Clock;
  /** The device host; built from the configuration (DEVICE_HOST) when not given, and closed with the module. */
  host?: DeviceHost;
  /** Where a run's `svc_device` reaches the device RPC; BASE_URL unless a test serves elsewhere. */
  baseUrl?: string;
  /** Makes a run's device `ready` before it starts: the device lifecycle. */
  readiness: RunReadiness;
  /** Whether a device host can take a run's device at start (the device host); not asked when absent. */
  capacity?: Pick<DeviceHost, 'capacityFor'>;
  /** Checks the device's assigned proxy at launch (the proxies module's run check). */
  proxyExit?: ProxyExitCheck;
  log?: JobLog;
  /** Finds library images on a screen (the images module's ScreenImages): `find_image`, `tap {image_id}`, `if_image`. */
  images: ImageFinder;
  /** Names the run worker in `locked_by`. */
  workerName?: string;
  /** Records a run's macro.* events and its macro's custom events (the events module's emit). */
  emit: EmitEvent;
}

export interface RunsServices {
  runs: CloudRunService;
  rpc: DeviceRpc;
  executor: RunExecutor;
  host: DeviceHost;
  /** Run traces (§17): begun and finished by the executor, recorded by the RPC and block steps. */
  tracing: RunTracing;
  /** Reading traces: the trace routes, the run_trace tool, the authoring agent's run_files. */
  traces: TraceService;
}

export function runnerSettingsOf(config: Config): PythonRunSettings {
  return { runsDir: config.runsDir, maxSeconds: config.runMaxSeconds, maxMemoryMb: config.runMaxMemoryMb, path: config.runPath, sdkDir: SDK_DIR, runAs: config.runAs, sandbox: config.runSandbox };
}

/** RUN_SANDBOX=required on a machine that cannot sandbox, or no slot on the host: a run's start answers 503 `runs_unavailable`, saying why. */
function runCapacity(config: Config, host: Pick<DeviceHost, 'capacityFor'> | undefined): RunCapacity {
  return {
    refusal: async (deviceId) => {
      const sandbox = await runSandboxStatus(config);
      if (!sandbox.sandboxed && sandbox.mode === 'required') return sandbox.message;
      if (!host) return null;
      const answer = await host.capacityFor(deviceId);
      return answer.available ? null : answer.reason;
    },
  };
}

const silent: JobLog = { info() {}, warn() {}, error() {} };

export function buildRunsModule(deps: RunsModuleDeps): {
  routes: FastifyPluginAsyncTypebox;
  services: RunsServices;
  workers: BackgroundWorker[];
  /** The run worker itself, for tests and tools. */
  runWorker: RunWorker;
  close: () => Promise<void>;
} {
  const { config, db, clock } = deps;
  const log = deps.log ?? silent;
  const ownHost = deps.host === undefined;
  const host = deps.host ?? createDeviceHost(config, { db, clock });
  const tracing = new RunTracing({ db, clock, settings: config.runTrace, log });
  const traces = new TraceService(db.kysely);
  const rpc = new DeviceRpc({ db, clock, host, images: deps.images, emit: deps.emit, tracerFor: (caller) => tracing.recorderFor(caller.runId) });
  const executor = runExecutor({
    db,
    clock,
    host,
    settings: runnerSettingsOf(config),
    baseUrl: deps.baseUrl ?? config.baseUrl,
    images: deps.images,
    tracing,
    onLogsLost: (error, lines) => log.error({ err: error, lines }, 'a batch of run log lines could not be stored and was given up'),
  });
  const runs = cloudRunService({ config, db, clock, capacity: runCapacity(config, deps.capacity) });
  const runWorker = createRunWorker({
    db,
    clock,
    log,
    kind: cloudRunJob(config),
    executor,
    host,
    readiness: deps.readiness,
    proxyExit: deps.proxyExit,
    name: deps.workerName,
    emit: deps.emit,
  });
  return {
    routes: async (app) => {
      await app.register(cloudRunRoutes(runs));
      await app.register(deviceRpcRoutes(rpc));
      await app.register(traceRoutes(traces));
      await app.register(blockSchemaRoutes(config.baseUrl));
    },
    services: { runs, rpc, executor, host, tracing, traces },
    workers: [runWorker, traceSweeper({ db, clock, days: config.runTrace.days, log })],
    runWorker,
    close: async () => {
      await tracing.close();
      if (ownHost) await host.close();
    },
  };
}
