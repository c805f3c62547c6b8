// The relay recipe of decisions.md §6, applied by a run on a device that can be routed (an
// `adb` device, whose driver has a proxy control): at launch the local relay is started (for
// `local_relay`) and the device steps are applied in order (`adb reverse tcp:P tcp:P`, then
// `settings put global http_proxy 127.0.0.1:P`); at the end the teardown steps run and the
// relay closes. The plan (mode, port, steps) is the proxies module's, the same one the
// connection-info route shows, so what a run does is what the recipe documents.
import type { DeviceProxyControl } from '../../devices/index.js';
import { messageOf } from '../../../lib/error-message.js';

/** One device step of the plan. */
export type RouteStep = { kind: 'reverse'; port: number } | { kind: 'remove_reverse'; port: number } | { kind: 'http_proxy'; value: string };

/** The relay plan of the device's assigned proxy (the proxies module's RunProxyRelay). */
export interface ProxyRoutePlan {
  mode: 'direct' | 'local_relay';
  local: { host: string; port: number };
  deviceSteps: RouteStep[];
  teardown: RouteStep[];
  /** `local_relay`: starts the relay on `local.port`; it forwards with the proxy's credentials. */
  open?: () => Promise<{ close(): Promise<void> }>;
}

export interface AppliedRoute {
  /** Undoes the route: every teardown step, then the relay closes. Answers what could not be done (never secrets). */
  teardown(): Promise<string[]>;
}

/** The step as the recipe's command (without `adb -s …`), for messages. */
export function describeStep(step: RouteStep): string {
  if (step.kind === 'reverse') return `adb reverse tcp:${step.port} tcp:${step.port}`;
  if (step.kind === 'remove_reverse') return `adb reverse --remove tcp:${step.port}`;
  return `settings put global http_proxy ${step.value}`;
}

async function applyStep(control: DeviceProxyControl, step: RouteStep): Promise<void> {
  if (step.kind === 'reverse') await control.reverse(step.port);
  else if (step.kind === 'remove_reverse') await control.removeReverse(step.port);
  else await control.setHttpProxy(step.value);
}

/** A step of the route that failed, named in the message (which holds no secret: steps carry none). */
export class RouteSetupError extends Error {}

async function undo(control: DeviceProxyControl, plan: ProxyRoutePlan, relay: { close(): Promise<void> } | null): Promise<string[]> {
  const problems: string[] = [];
  for (const step of plan.teardown) {
    try {
      await applyStep(control, step);
    } catch (error) {
      problems.push(`${describeStep(step)}: ${messageOf(error)}`);
    }
  }
  try {
    await relay?.close();
  } catch (error) {
    problems.push(`closing the local relay on 127.0.0.1:${plan.local.port}: ${messageOf(error)}`);
  }
  return problems;
}

/** Starts the relay and applies the device steps; on a failure undoes what was done and throws RouteSetupError naming the step. */
export async function applyProxyRoute(control: DeviceProxyControl, plan: ProxyRoutePlan): Promise<AppliedRoute> {
  let relay: { close(): Promise<void> } | null = null;
  if (plan.open) {
    try {
      relay = await plan.open();
    } catch (error) {
      throw new RouteSetupError(`starting the local relay on 127.0.0.1:${plan.local.port} failed: ${messageOf(error)}`);
    }
  }
  for (const step of plan.deviceSteps) {
    try {
      await applyStep(control, step);
    } catch (error) {
      await undo(control, plan, relay);
      throw new RouteSetupError(`${describeStep(step)} failed: ${messageOf(error)}`);
    }
  }
  const applied = relay;
  return { teardown: () => undo(control, plan, applied) };
}

/**
 * After a worker died mid-run its relay is gone, but the device may still point at it: an
 * `http_proxy` of 127.0.0.1:P together with a reverse of tcp:P is this recipe's mark. Both are
 * removed (a `direct` proxy setting is left: it still works). Answers whether it found one.
 */
export async function clearLeftoverRoute(control: DeviceProxyControl): Promise<boolean> {
  const match = /^127\.0\.0\.1:(\d+)$/.exec((await control.httpProxy()) ?? '');
  if (!match) return false;
  const port = Number(match[1]);
  if (!(await control.reverses()).some((r) => r.remote === `tcp:${port}`)) return false;
  await control.setHttpProxy(':0');
  await control.removeReverse(port);
  return true;
}
