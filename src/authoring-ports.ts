// The authoring agent's ports (src/modules/authoring/ports.ts), built from the other modules'
// front doors: macros and code sync for its project, the lease service for its device, the
// runs module for its runs (the same front door as the cloud-run route), run history and
// logs for their outcome, and the maps module for the menu maps the account has learned.
import type { CodeSyncService } from './modules/code-sync/index.js';
import { currentTextFiles, installTextFiles } from './modules/code-sync/index.js';
import type { Db } from './db/database.js';
import { NotACloudDeviceError } from './core/errors.js';
import type { AuthoringPorts } from './modules/authoring/index.js';
import { type DeviceVision, findOwnedDevice, type LeaseService } from './modules/devices/index.js';
import { findRunByExecutionId } from './modules/executions/index.js';
import { findOwnedMacro, type MacroService } from './modules/macros/index.js';
import type { RunLogService } from './modules/run-logs/index.js';
import type { CloudRunService, TraceService } from './modules/runs/index.js';
import type { MapsService } from './modules/maps/index.js';

export interface AuthoringPortDeps {
  db: Db;
  macros: MacroService;
  codeSync: CodeSyncService;
  leases: LeaseService;
  runs: CloudRunService;
  runLogs: RunLogService;
  traces: TraceService;
  maps: MapsService;
  vision: DeviceVision;
}

export function authoringPorts(deps: AuthoringPortDeps): AuthoringPorts {
  const db = deps.db.kysely;
  // Every session's lease is held with no key, so a tool client's key can neither extend it nor drive the device through it.
  const holder = (ctx: { userId: number }) => ({ userId: ctx.userId, keyId: null });
  return {
    macroKind: async (ctx, macroId) => (await findOwnedMacro(db, ctx.userId, macroId)).kind,
    createCodeMacro: async (ctx, name, description) => (await deps.macros.create(ctx, { name, kind: 'python', description })).id,
    currentFiles: (ctx, macroId) => currentTextFiles(db, ctx, macroId),
    installFiles: (ctx, macroId, files, entryPath) => installTextFiles(deps.codeSync, ctx, { macroId, files, entryPath }),
    checkCloudDevice: async (ctx, deviceId) => {
      const device = await findOwnedDevice(db, ctx.userId, deviceId);
      if (device.is_hosted !== 1) throw new NotACloudDeviceError();
    },
    leaseDevice: async (ctx, deviceId, minutes, signal) => (await deps.leases.lease(holder(ctx), { device_id: deviceId, minutes }, { signal })).lease_id,
    releaseDevice: async (ctx, leaseId) => {
      await deps.leases.release(holder(ctx), { lease_id: leaseId }).catch(() => undefined);
    },
    vision: deps.vision,
    driver: async (ctx, leaseId) => (await deps.leases.resolve(holder(ctx), { lease_id: leaseId })).driver,
    startRun: (ctx, input) => deps.runs.start(ctx, { deviceId: input.deviceId, macro_id: input.macroId, underLease: input.underLease, ...(input.args ? { args: input.args } : {}) }),
    getRun: (ctx, runId) => deps.runs.get(ctx, { id: runId }),
    stopRun: async (ctx, runId) => {
      await deps.runs.stop(ctx, { id: runId });
    },
    runOutcome: async (ctx, executionId) => {
      const row = await findRunByExecutionId(db, ctx.userId, executionId);
      return { exit_code: row?.exit_code ?? null, error_message: row?.error_message ?? null };
    },
    logTail: async (ctx, executionId, lines) => (await deps.runLogs.read(ctx, { execution_id: executionId, max_lines: lines })).lines,
    failedStep: async (ctx, executionId) => {
      const { trace, focus, frames } = await deps.traces.forTool(ctx, { execution_id: executionId, steps: 'failed' }).catch(() => ({ trace: null, focus: undefined, frames: [] }));
      const step = trace?.failed_step === undefined ? undefined : trace.steps.find((s) => s.seq === focus);
      if (!step) return null;
      const { frame_before: before, frame_after: after, ...shown } = step;
      const picked = frames.find((f) => f.id === before) ?? frames.find((f) => f.id === after);
      return { step: shown, frame: picked ? { jpeg: picked.jpeg, which: picked.id === before ? 'before' : 'after' } : null };
    },
    mapOf: (ctx, pkg) => deps.maps.find(ctx, pkg),
    mappedPackages: async (ctx) => (await deps.maps.list(ctx)).items.map((m) => m.package),
  };
}
