// The fake phone's screen power and lock screen. A phone whose screen-off timeout runs out
// (FakeBehaviour.screenOffAfterMs; input counts as activity) turns its screen off and locks,
// unless stay-on is set (`svc power stayon`, setting global/stay_on_while_plugged_in, as
// while charging). Asleep: screencap is black and input other than WAKEUP/POWER is dropped.
// Locked: the lock screen shows and takes the taps, until `wm dismiss-keyguard`.
import sharp from 'sharp';
import { type CommandResult, failed, type FakeAndroidDevice, ok } from './device.js';

const STAY_ON = 'global/stay_on_while_plugged_in';
/** `svc power stayon` values: the plug types (BatteryManager) the screen stays on for. */
const STAY_ON_VALUES: Record<string, string> = { true: '7', false: '0', ac: '1', usb: '2', wireless: '4' };

export class ScreenPower {
  awake = true;
  locked = false;
  private lastActivity = Date.now();

  constructor(private readonly device: FakeAndroidDevice) {}

  /** Before every command: the timeout runs out unless the screen is kept on. */
  tick(): void {
    const after = this.device.behaviour.screenOffAfterMs;
    const stayOn = Number(this.device.settings.get(STAY_ON) ?? '0') !== 0;
    if (this.awake && after !== null && !stayOn && Date.now() - this.lastActivity >= after) {
      this.awake = false;
      this.locked = true;
    }
  }

  /** An input event: WAKEUP/POWER turn the screen on (still locked); anything reaches the app only when awake and unlocked. */
  input(wakes: boolean): boolean {
    if (wakes) this.awake = true;
    if (!this.awake) return false;
    this.lastActivity = Date.now();
    return !this.locked;
  }

  /** What screencap shows instead of the app: black when off, the dark lock screen when locked. */
  async cover(width: number, height: number): Promise<Buffer | null> {
    if (this.awake && !this.locked) return null;
    const background = this.awake ? { r: 18, g: 22, b: 38 } : { r: 0, g: 0, b: 0 };
    return sharp({ create: { width, height, channels: 3, background } }).png({ compressionLevel: 1 }).toBuffer();
  }

  /** A display that is off. */
  black(width: number, height: number): Promise<Buffer> {
    return sharp({ create: { width, height, channels: 3, background: { r: 0, g: 0, b: 0 } } }).png({ compressionLevel: 1 }).toBuffer();
  }

  /** `svc power stayon true|false|usb|ac|wireless` */
  svc(args: string[]): CommandResult {
    if (args[0] !== 'power' || args[1] !== 'stayon' || STAY_ON_VALUES[args[2] ?? ''] === undefined) return failed('usage: svc power stayon [true|false|usb|ac|wireless]\n');
    this.device.settings.set(STAY_ON, STAY_ON_VALUES[args[2]]);
    return ok();
  }

  /** `wm dismiss-keyguard`: an insecure lock screen goes away once the screen is on. */
  dismissKeyguard(): CommandResult {
    if (this.awake) this.locked = false;
    return ok();
  }
}
