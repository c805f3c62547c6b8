// The fake phone's `uiautomator dump`: one UI automation client at a time, as Android allows.
import { type CommandResult, failed, type FakeAndroidDevice, ok } from './device.js';
import { uiDumpXml } from './ui-xml.js';

const UI_AUTOMATION_TAKEN =
  'Exception in thread "main" java.lang.IllegalStateException: UiAutomationService android.accessibilityservice.IAccessibilityServiceClient$Stub$Proxy@3f2a9c1already registered!\n' +
  '\tat android.os.Parcel.createExceptionOrNull(Parcel.java:3017)\n\tat android.app.UiAutomationConnection.connect(UiAutomationConnection.java:110)\n';

/** What a dump shows over the lock screen: System UI's keyguard, not the app. */
const KEYGUARD_XML =
  `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" resource-id="com.android.systemui:id/keyguard_root_view" class="android.widget.FrameLayout" package="com.android.systemui" content-desc="" clickable="false" focused="false" bounds="[0,0][1080,2400]"><node index="0" text="Swipe up to unlock" resource-id="com.android.systemui:id/keyguard_indication_text" class="android.widget.TextView" package="com.android.systemui" content-desc="" clickable="false" focused="false" bounds="[0,2100][1080,2180]" /></node></hierarchy>`;

/** `uiautomator dump FILE`: one client at a time; it holds the connection while it waits for the screen to settle. */
export async function uiautomator(device: FakeAndroidDevice, args: string[]): Promise<CommandResult> {
  if (args[0] !== 'dump') return failed(`Unknown command: ${args[0]}\n`);
  if (device.uiAutomationBusy) return failed(UI_AUTOMATION_TAKEN);
  device.uiAutomationBusy = true;
  try {
    await new Promise((resolve) => setTimeout(resolve, device.behaviour.uiDumpMs));
  } finally {
    device.uiAutomationBusy = false;
  }
  if (device.uiDumpIdleFailures > 0) {
    device.uiDumpIdleFailures -= 1;
    return ok('ERROR: could not get idle state.\n');
  }
  if (device.behaviour.uiDumpNullRoots > 0) {
    device.behaviour.uiDumpNullRoots -= 1;
    return ok('ERROR: null root node returned by UiTestAutomationBridge.\n');
  }
  const file = args[1] ?? '/sdcard/window_dump.xml';
  device.files.set(file, Buffer.from(device.power.awake && !device.power.locked ? uiDumpXml(device) : KEYGUARD_XML));
  return ok(`UI hierchary dumped to: ${file}\n`);
}

