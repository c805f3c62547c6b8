// The device RPC behind the Python SDK: a running macro's calls, authenticated by its run
// token (not a key or a session), reach the DeviceDriver of that run's device. The token
// opens only its own run's device, and only while the run is active; any process can answer,
// since the driver keeps the device's state in shared storage.
import { AppError, ForbiddenError } from '../../../core/errors.js';
import { type ActionTracer, type CatalogueEntry, type DeviceHost, tracedStep } from '../../devices/index.js';
import { callAction } from './actions.js';
import { type CallDeps, RPC_FUNCTIONS, type RpcFunctionName, type RunCaller } from './functions.js';
import { findRunByToken, TOKEN_STATES } from './run-tokens.js';

export class RunTokenError extends AppError {
  constructor(code: 'missing_run_token' | 'invalid_run_token', message: string) {
    super(401, code, message, {}, { 'www-authenticate': 'Bearer realm="svc_device"' });
  }
}

export interface DeviceRpcDeps extends CallDeps {
  host: DeviceHost;
  /** The run's trace recorder, when the run keeps a trace (RUN_TRACE, §17). */
  tracerFor?: (caller: RunCaller) => Promise<ActionTracer | undefined>;
}

/**
 * The trace's name for each SDK function (§17): the catalogue's name where the function is one
 * of its actions under an older name, else its own. `emit_event` does not touch the device.
 */
const TRACED_AS: Partial<Record<RpcFunctionName, string>> = {
  tap: 'tap',
  tap_text: 'tap',
  tap_element: 'tap',
  swipe: 'swipe',
  type_text: 'type',
  key: 'key',
  screenshot: 'screenshot',
  ui_tree: 'ui_tree',
  find_text: 'find_text',
  find_image: 'find_image',
  open_app: 'app_open',
  close_app: 'app_close',
  current_app: 'current_app',
};

export class DeviceRpc {
  constructor(private readonly deps: DeviceRpcDeps) {}

  /** The run behind `Authorization: Bearer <token>`, if it may drive `deviceId` now; else 401 or 403. */
  async authenticate(authorization: string | undefined, deviceId: number): Promise<RunCaller> {
    const match = /^Bearer ([^\s]+)$/i.exec(authorization?.trim() ?? '');
    if (!match) throw new RunTokenError('missing_run_token', 'Send the run token as Authorization: Bearer <SVC_RUN_TOKEN>; this route serves running macros only.');
    const run = await findRunByToken(this.deps.db.kysely, match[1]);
    if (!run || !TOKEN_STATES.includes(run.state)) {
      throw new RunTokenError('invalid_run_token', 'This run token is not valid: the run has ended, or the token is wrong.');
    }
    if (run.device_id !== deviceId) throw new ForbiddenError('wrong_device', "This run token belongs to another device's run; it drives only its own device.");
    return { runId: run.id, userId: run.user_id, deviceId: run.device_id, executionId: run.execution_id };
  }

  /** One SDK call on the caller's device. */
  async call(caller: RunCaller, input: { function: RpcFunctionName; body: unknown }): Promise<unknown> {
    const fn = RPC_FUNCTIONS[input.function] as { call(driver: unknown, body: unknown, caller: RunCaller, deps: DeviceRpcDeps): Promise<unknown> };
    const driver = await this.deps.host.driver(caller.deviceId);
    const action = TRACED_AS[input.function];
    const tracer = action ? await this.deps.tracerFor?.(caller) : undefined;
    const env = { driver, owner: { userId: caller.userId }, vision: this.deps.images };
    const args = (input.body ?? {}) as Record<string, unknown>;
    return tracedStep(tracer, { action: action ?? input.function, args }, env, (traced) => fn.call(traced.driver, input.body, caller, this.deps));
  }

  /** One catalogue action on the caller's device, with the run's interrupts. */
  async action(caller: RunCaller, entry: CatalogueEntry, body: Record<string, unknown>): Promise<{ result: unknown; log: string[] }> {
    const driver = await this.deps.host.driver(caller.deviceId);
    return callAction(entry, driver, body, caller, this.deps, await this.deps.tracerFor?.(caller));
  }
}
