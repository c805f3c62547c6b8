// Recording a cloud device (decisions.md §18): start, read, stop, save as a macro, replay.
// A recording holds its device as a lease does (§9): a `device_leases` row marked with the
// recording (holdDeviceForJob), so a run, a lease, an exploration, another recording and the
// live view's tap all find the device busy (409 `device_busy`) through the checks they
// already make. Every input extends the hold by RECORDING_IDLE_MS; a hold that ran out (or
// went with the device's stop) ends the recording. The inputs themselves are inputs.ts.
import { randomHex } from '../../lib/crypto.js';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../../core/errors.js';
import type { ServiceContext } from '../../core/context.js';
import type { Db } from '../../db/database.js';
import { type Clock, toIso } from '../../lib/clock.js';
import type { CodeSyncService } from '../code-sync/index.js';
import { DeviceNotReadyError, type DeviceDriver, type DeviceHost, findCloudDevice, holdDeviceForJob, type LeaseService, releaseJobHold, renewJobHold } from '../devices/index.js';
import type { MacroService } from '../macros/index.js';
import { type CloudRunService, deviceHasActiveRun } from '../runs/index.js';
import { blockProgramOf, pythonSourceOf } from './program.js';
import type { RecordingRecord, SavedMacro, SaveInput } from './schemas.js';
import { type RecordingRow, RecordingStore, type StoredStep } from './store.js';

/** Idle this long (no input) and the recording ends (the hold lapses). */
export const RECORDING_IDLE_MS = 15 * 60_000;
export const PYTHON_ENTRY = 'src/app.py';

type Caller = Pick<ServiceContext, 'userId'>;

export interface RecorderPorts {
  host: DeviceHost;
  leases: Pick<LeaseService, 'holderOf'>;
  macros: Pick<MacroService, 'create'>;
  codeSync: Pick<CodeSyncService, 'installFiles'>;
  runs: Pick<CloudRunService, 'start'>;
}

export const recordingStopped = () => new ConflictError('recording_stopped', 'This recording has ended (stopped, idle for 15 minutes, or its device stopped). Start a new recording.');

export const stepUrl = (rid: string, seq: number) => `/api/hosted/recordings/${rid}/steps/${seq}/frame`;

export class RecorderService {
  readonly store: RecordingStore;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly ports: RecorderPorts,
  ) {
    this.store = new RecordingStore(db.kysely);
  }

  /** Starts recording the caller's ready cloud device; 409 `device_not_ready` / `device_busy` as the live view's tap and a lease answer. */
  async start(ctx: Caller, deviceId: number): Promise<RecordingRecord> {
    const device = await findCloudDevice(this.db.kysely, ctx.userId, deviceId);
    if (device.hosted_state !== 'ready') throw new DeviceNotReadyError(deviceId);
    const id = `rec_${randomHex(12)}`;
    const now = this.clock.now();
    const expiresAt = now + RECORDING_IDLE_MS;
    await this.db.kysely.transaction().execute(async (trx) => {
      const { leaseId } = await holdDeviceForJob(trx, this.db.dialect, { userId: ctx.userId, deviceId, job: `the recording ${id}`, now, expiresAt }, deviceHasActiveRun);
      await this.store.insert(trx, { id, user_id: ctx.userId, device_id: deviceId, lease_id: leaseId, state: 'recording', next_seq: 1, started_at: now, ended_at: null, expires_at: expiresAt });
    });
    return this.present(await this.store.find(ctx.userId, id));
  }

  /** The device's recording in state `recording`, or null when there is none (someone else's device: 404). */
  async current(ctx: Caller, deviceId: number): Promise<{ recording: RecordingRecord | null }> {
    await findCloudDevice(this.db.kysely, ctx.userId, deviceId);
    const row = await this.store.activeOn(ctx.userId, deviceId);
    if (!row || !(await this.isLive(row))) return { recording: null };
    return { recording: await this.present(row) };
  }

  async get(ctx: Caller, rid: string): Promise<RecordingRecord> {
    const row = await this.store.find(ctx.userId, rid);
    // Read again only when isLive has just moved it to `stopped` (its hold ran out).
    const lapsed = row.state === 'recording' && !(await this.isLive(row));
    return this.present(lapsed ? await this.store.find(ctx.userId, rid) : row);
  }

  /** Ends the recording and frees the device; a recording already ended is answered as it is. */
  async stop(ctx: Caller, rid: string): Promise<RecordingRecord> {
    const row = await this.store.find(ctx.userId, rid);
    await this.end(row);
    return this.present(await this.store.find(ctx.userId, rid));
  }

  /**
   * Whether the recording still holds its device: `recording`, its hold unexpired and still
   * its own. One that lost its hold is moved to `stopped` here.
   */
  async isLive(row: RecordingRow): Promise<boolean> {
    if (row.state !== 'recording') return false;
    const now = this.clock.now();
    const holder = row.expires_at > now ? await this.ports.leases.holderOf(row.device_id) : null;
    if (holder?.lease_id === row.lease_id) return true;
    await this.store.stop(row.id, Math.min(now, row.expires_at));
    return false;
  }

  /** The caller's live recording, its hold extended by RECORDING_IDLE_MS; 409 `recording_stopped` when it has ended. */
  async holdFor(ctx: Caller, rid: string): Promise<RecordingRow> {
    const row = await this.store.find(ctx.userId, rid);
    if (!(await this.isLive(row))) throw recordingStopped();
    const now = this.clock.now();
    if (!(await renewJobHold(this.db.kysely, row.lease_id, now, now + RECORDING_IDLE_MS))) {
      await this.store.stop(row.id, now);
      throw recordingStopped();
    }
    await this.store.extend(row.id, now + RECORDING_IDLE_MS);
    return row;
  }

  /** A driver for the recording's device, which must be ready. */
  async driverOf(ctx: Caller, row: RecordingRow): Promise<DeviceDriver> {
    const device = await findCloudDevice(this.db.kysely, ctx.userId, row.device_id);
    if (device.hosted_state !== 'ready') throw new DeviceNotReadyError(row.device_id);
    return this.ports.host.driver(row.device_id);
  }

  private async end(row: RecordingRow): Promise<void> {
    if (row.state !== 'recording') return;
    await releaseJobHold(this.db.kysely, row.lease_id);
    await this.store.stop(row.id, this.clock.now());
  }

  /** Saves the steps so far as a new macro (the recording goes on): 201 with the macro, as POST /api/macros answers. */
  async save(ctx: ServiceContext, rid: string, input: SaveInput) {
    const row = await this.store.find(ctx.userId, rid);
    const steps = await this.store.steps(row.id);
    if (steps.length === 0) throw new ValidationError([{ path: 'recording.steps', message: 'is empty: record at least one step before saving' }]);
    let macro;
    if (input.kind === 'block') {
      macro = await this.ports.macros.create(ctx, { name: input.name, kind: 'block', blocks: blockProgramOf(steps) });
    } else {
      macro = await this.ports.macros.create(ctx, { name: input.name, kind: 'python' });
      const source = pythonSourceOf(steps, input.name.trim());
      await this.ports.codeSync.installFiles(ctx, { macro_id: macro.id, files: [{ path: PYTHON_ENTRY, content: source }], entry_path: PYTHON_ENTRY });
    }
    await this.store.addSaved(row.id, { id: macro.id, name: macro.name, kind: input.kind });
    return macro;
  }

  /**
   * Ends the recording and starts a cloud run of the macro on the same device, from wherever
   * the device is (as POST /api/hosted/devices/{id}/run answers). The run starts under the
   * recording's own hold, which then goes: a refused start (someone else's macro, one that
   * cannot run) leaves the recording as it was.
   */
  async replay(ctx: ServiceContext, rid: string, macroId: number) {
    const row = await this.store.find(ctx.userId, rid);
    const live = await this.isLive(row);
    const run = await this.ports.runs.start(ctx, { device_id: row.device_id, macro_id: macroId, ...(live ? { under_lease: row.lease_id } : {}) });
    if (live) await this.end(row);
    return run;
  }

  /** The frame of a step (JPEG); 404 when the step has none. */
  async frame(ctx: Caller, rid: string, seq: number): Promise<Buffer> {
    const row = await this.store.find(ctx.userId, rid);
    const frame = await this.store.frame(row.id, seq);
    if (!frame) throw new NotFoundError('This step has no frame: the screen could not be read when it was recorded.');
    return frame;
  }

  /** Deletes a step. */
  async deleteStep(ctx: Caller, rid: string, seq: number): Promise<void> {
    const row = await this.store.find(ctx.userId, rid);
    await this.store.deleteStep(row.id, seq);
  }

  async present(row: RecordingRow): Promise<RecordingRecord> {
    const steps = await this.store.steps(row.id);
    return {
      id: row.id,
      device_id: row.device_id,
      state: row.state,
      started_at: toIso(row.started_at),
      ended_at: toIso(row.ended_at),
      expires_at: toIso(row.expires_at),
      steps: steps.map((step) => this.presentStep(row.id, step)),
      saved: JSON.parse(row.saved) as SavedMacro[],
    };
  }

  presentStep(rid: string, step: StoredStep) {
    return { ...step, frame_url: stepUrl(rid, step.seq) };
  }
}

export const noElement = (message: string) => new AppError(422, 'no_element', message);
