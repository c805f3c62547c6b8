// Fault injection for the simulated host, for tests of what happens when a device host
// fails: a boot that fails, a slow screenshot, a host fault on any call, no capacity. It is
// an explicit option of the host (`SimHostOptions.faults`), never a global: a test builds a
// SimFaults, hands it to the host it creates, and arms faults on it.
import { DeviceHostFaultError, NoDeviceCapacityError } from '../errors.js';

export type SimOperation =
  | 'place'
  | 'boot'
  | 'shutdown'
  | 'screenshot'
  | 'uiTree'
  | 'tap'
  | 'swipe'
  | 'typeText'
  | 'pressKey'
  | 'openApp'
  | 'closeApp'
  | 'listApps'
  | 'installApk'
  | 'currentApp'
  | 'screenSize';

export type SimFault =
  /** The call fails with DeviceHostFaultError(message). */
  | { kind: 'fail'; message: string }
  /** The call waits this long first (a slow host). */
  | { kind: 'delay'; ms: number }
  /** `place` answers NoDeviceCapacityError. */
  | { kind: 'no_capacity' };

export interface SimFaultInjector {
  /** Asked before every operation; the fault it answers is applied. */
  before(operation: SimOperation, deviceId: number): SimFault | undefined;
}

interface Rule {
  operation: SimOperation | '*';
  fault: SimFault;
  deviceId?: number;
  remaining: number;
}

export class SimFaults implements SimFaultInjector {
  private rules: Rule[] = [];

  /** Arms a fault for `operation` (`*`: every one), for one device or all, `times` times (default: until cleared). */
  inject(operation: SimOperation | '*', fault: SimFault, options: { deviceId?: number; times?: number } = {}): this {
    this.rules.push({ operation, fault, deviceId: options.deviceId, remaining: options.times ?? Number.POSITIVE_INFINITY });
    return this;
  }

  clear(): void {
    this.rules = [];
  }

  before(operation: SimOperation, deviceId: number): SimFault | undefined {
    const rule = this.rules.find((r) => (r.operation === '*' || r.operation === operation) && (r.deviceId === undefined || r.deviceId === deviceId));
    if (!rule) return undefined;
    rule.remaining -= 1;
    if (rule.remaining <= 0) this.rules = this.rules.filter((r) => r !== rule);
    return rule.fault;
  }
}

export async function applyFault(injector: SimFaultInjector | undefined, operation: SimOperation, deviceId: number): Promise<void> {
  const fault = injector?.before(operation, deviceId);
  if (!fault) return;
  if (fault.kind === 'delay') await new Promise((resolve) => setTimeout(resolve, fault.ms));
  else if (fault.kind === 'no_capacity') throw new NoDeviceCapacityError('the simulated host was told to refuse (fault injection)');
  else throw new DeviceHostFaultError(fault.message);
}
