// The Python SDK against the real device RPC over HTTP: a macro walks the Corner Shop demo
// app on a simulated device through svc_device, errors arrive as svc_device.DeviceError with
// the service's code, and its logs are read back with the cursor.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_APP_PACKAGE } from '../../../src/modules/devices/hosts/index.js';
import { LogShipper } from '../../../src/modules/runs/logs/log-shipper.js';
import { runLogStoreSink } from '../../../src/modules/runs/logs/log-sink.js';
import { issueRunToken } from '../../../src/modules/runs/rpc/run-tokens.js';
import { runPython } from '../../../src/modules/runs/runner/python-run.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createKey, signUp, type SignedUpUser, withKey } from '../../helpers/users.js';
import { bootedCloudDevice, listen } from './helpers/device.js';
import { insertCloudRun, insertHistoryRecord } from './helpers/records.js';
import { removeTempDirs, runnerSettings, zipOf } from './helpers/runner.js';

let t: TestApp;
let baseUrl: string;
let user: SignedUpUser;
beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await listen(t.app);
  user = await signUp(t.app);
});
afterAll(async () => {
  await t.close();
  removeTempDirs();
});

const WALK = `
import svc_device as d

d.log("walk: start")
print("front:", d.current_app())
d.open_app("${DEMO_APP_PACKAGE}")
print("front:", d.current_app())
tree = d.ui_tree()
row = next(e for e in tree if e["element_id"] == "row_beans")
hit = d.tap(row["center"]["x"], row["center"]["y"])
print("tap hit:", hit["element_id"], hit["clickable"])
print("price:", d.find_text("€9.50")["element_id"])
d.tap_text("Add to cart")
print("dialog:", d.find_text("Added to cart") is not None)
d.tap_text("Check out")
d.tap_element("full_name")
d.type_text("Ada Lovelace")
d.tap_element("street")
d.type_text("12 Rope Walk\\nLondon")
print("city:", next(e["text"] for e in d.ui_tree() if e["element_id"] == "city"))
d.key("BACK")  # the keyboard covers the button while a field has focus
d.tap_text("place order")
print("thanks:", d.find_text("Thank you")["text"])
png = d.screenshot()
print("png:", png[:8] == b"\\x89PNG\\r\\n\\x1a\\n", len(png) > 10000)
d.swipe(540, 1800, 540, 900, ms=150)
print("missing:", d.find_text("No such words anywhere"))
for call in (lambda: d.tap_text("No such words anywhere"), lambda: d.tap_element("nope"), lambda: d.find_image("img_0123456789abcdef"),
             lambda: d.key("NOT_A_KEY"), lambda: d.open_app("com.nope.app"), lambda: d.tap(5000, 10)):
    try:
        call()
        print("no error?")
    except d.DeviceError as error:
        print("error:", error.status, error.code, error.message)
print("event:", d.emit_event("order_placed", {"name": "Ada", "total": 9.5}).startswith("evt_"))
d.key("HOME")
d.close_app("${DEMO_APP_PACKAGE}")
d.wait(5)
print("front:", d.current_app())
print("args:", d.args())
d.log("walk: done")
`;

async function startRun(macro: string, args: Record<string, unknown> = {}, extra: { proxyUrl?: string; onLine?: (line: string) => void } = {}) {
  const device = await bootedCloudDevice(t.app, t.db, user);
  const run = await insertCloudRun(t.db.kysely, { userId: user.id, deviceId: device.id, macroId: 1 });
  const recordId = await insertHistoryRecord(t.db.kysely, user.id, run.execution_id, 'python', device.id);
  const token = await issueRunToken(t.db.kysely, run.id, Date.now());
  const store = runLogStoreSink(t.db, t.clock, recordId);
  const logs = new LogShipper({ append: async (lines) => (lines.forEach((line) => extra.onLine?.(line)), store.append(lines)) }, { intervalMs: 10 });
  const outcome = await runPython(runnerSettings(), {
    executionId: run.execution_id, zip: zipOf({ 'main.py': macro }), entryPath: 'main.py', args, deviceUrl: `${baseUrl}/api/runs/devices/${device.id}`, token, logs, proxyUrl: extra.proxyUrl,
  });
  await logs.close();
  return { outcome, device, run };
}

describe('svc_device, walking the Corner Shop', () => {
  test('a real macro shops, checks out and signs the order through the device RPC; its log reads back through the cursor', async () => {
    const { outcome, device, run } = await startRun(WALK, { shopper: 'Ada' });
    const key = (await createKey(t.app, user, { scopes: ['runs:read'] })).key;
    const res = await t.app.inject({ url: `/api/executions/${run.execution_id}/logs`, headers: withKey(key) });
    expect(res.statusCode).toBe(200);
    expect(res.json().lines).toEqual([
      'walk: start',
      'front: com.android.launcher3',
      `front: ${DEMO_APP_PACKAGE}`,
      'tap hit: row_beans True',
      'price: price',
      'dialog: True',
      'city: London',
      'thanks: Thank you, Ada Lovelace!',
      'png: True True',
      'missing: None',
      'error: 404 text_not_found No element on the screen shows the text "No such words anywhere".',
      'error: 404 element_not_found No element with the id "nope" on the screen.',
      'error: 404 not_found No image with this id in your image library.',
      'error: 422 validation_failed Validation failed: key is not an Android key name (for example BACK, HOME, ENTER, APP_SWITCH, DEL); got "NOT_A_KEY".',
      'error: 404 app_not_installed The app com.nope.app is not installed on this device.',
      'error: 422 validation_failed Validation failed: x must be a whole number from 0 to 1079 (the screen is 1080×2400).',
      'event: True',
      'front: com.android.launcher3',
      "args: {'shopper': 'Ada'}",
      'walk: done',
    ]);
    expect(outcome).toMatchObject({ state: 'finished', exitCode: 0 });
    // The device really is where the macro left it, for any other process too.
    expect((await device.driver.currentApp())?.package).toBe('com.android.launcher3');
    // The custom event, with the run's device and execution id, ready for webhooks.
    const event = await t.db.kysely.selectFrom('events').select(['type', 'device_id', 'payload']).where('user_id', '=', user.id).where('type', '=', 'custom.order_placed').executeTakeFirstOrThrow();
    expect(event.device_id).toBe(device.id);
    expect(JSON.parse(event.payload).data).toEqual({ device_id: device.id, group_id: null, execution_id: run.execution_id, data: { name: 'Ada', total: 9.5 } });
  });

  test('one kept-alive connection serves a run; a connection the server closed while idle is replaced without losing the call', async () => {
    let connections = 0;
    const count = () => (connections += 1);
    t.app.server.on('connection', count);
    const macro = 'import svc_device as d, time\nfor _ in range(10):\n    d.current_app()\nprint("first", flush=True)\ntime.sleep(0.8)\nprint(d.current_app())';
    try {
      const { outcome } = await startRun(macro, {}, { onLine: (line) => line === 'first' && setTimeout(() => t.app.server.closeIdleConnections(), 100) });
      expect(outcome).toMatchObject({ state: 'finished', exitCode: 0 });
    } finally {
      t.app.server.off('connection', count);
    }
    expect(connections).toBe(2);
  });

  test('with a proxy the macro’s own traffic goes through it, but svc_device reaches the service directly', async () => {
    const macro = [
      'import os, urllib.request, svc_device as d',
      'print(os.environ["HTTP_PROXY"], d.current_app())',
      'try:',
      '    urllib.request.urlopen("http://example.invalid/", timeout=5)',
      'except OSError as error:',
      '    print("own traffic:", "refused" if "refused" in str(error).lower() else error)',
    ].join('\n');
    const lines: string[] = [];
    const { outcome } = await startRun(macro, {}, { proxyUrl: 'http://127.0.0.1:9', onLine: (line) => lines.push(line) });
    expect(outcome.state).toBe('finished');
    // The proxy (nothing listens on port 9) refuses, so the macro's request went to it.
    expect(lines).toEqual(['http://127.0.0.1:9 com.android.launcher3', 'own traffic: refused']);
  });

  test('outside a run, svc_device says so', async () => {
    const { outcome } = await startRun('import os, svc_device\ndel os.environ["SVC_RUN_TOKEN"]\ntry:\n    svc_device.ui_tree()\nexcept svc_device.DeviceError as e:\n    print(e.code)\n    raise');
    expect(outcome).toMatchObject({ state: 'failed', exitCode: 1, errorMessage: 'svc_device.DeviceError: svc_device works inside a cloud run: SVC_DEVICE_URL and SVC_RUN_TOKEN are not set (not_in_a_run)' });
  });
});
