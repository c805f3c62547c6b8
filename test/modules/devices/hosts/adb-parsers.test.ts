// Reading what real devices print: uiautomator XML, dumpsys window / activity, pm and
// dumpsys package. The samples follow the formats of Android 10–14 builds.
import { describe, expect, test } from 'vitest';
import { currentAppFromActivities, currentAppFromDisplays, currentAppFromWindows, parsePackageCodes, parsePackageList, parsePackageVersions } from '../../../../src/modules/devices/hosts/adb/dumpsys.js';
import { amStartFailure } from '../../../../src/modules/devices/hosts/adb/am-start.js';
import { rotationFromDisplayDump, rotationFromUiDump } from '../../../../src/modules/devices/hosts/adb/display.js';
import { elementAt, parseUiDump } from '../../../../src/modules/devices/hosts/adb/ui-xml.js';

const DUMP = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.android.settings" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]"><node index="0" text="Search settings" resource-id="com.android.settings:id/search_action_bar_title" class="android.widget.TextView" package="com.android.settings" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[189,171][552,234]" /><node index="1" text="" resource-id="com.android.settings:id/search_src_text" class="android.widget.EditText" package="com.android.settings" content-desc="Tom &amp; Jerry &lt;3" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="true" scrollable="false" long-clickable="true" password="false" selected="false" bounds="[63,143][1017,262]"><node index="0" text="  Wi-Fi  " resource-id="" class="android.widget.Button" package="com.android.settings" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[100,150][300,250]" /></node></node></hierarchy>`;

describe('parseUiDump', () => {
  test('every node, in order, with index-path ids, decoded attributes and whitespace kept', () => {
    const tree = parseUiDump(DUMP);
    expect(tree.map((e) => e.element_id)).toEqual(['0', '0.0', '0.1', '0.1.0']);
    expect(tree[2]).toEqual({
      element_id: '0.1',
      class: 'android.widget.EditText',
      text: '',
      resource_id: 'com.android.settings:id/search_src_text',
      content_desc: 'Tom & Jerry <3',
      bounds: { left: 63, top: 143, right: 1017, bottom: 262 },
      clickable: true,
      editable: true,
      scrollable: false,
      focused: true,
    });
    expect(tree[3].text).toBe('  Wi-Fi  ');
    // The child button is on top of the field it sits in.
    expect(elementAt(tree, 150, 200)?.element_id).toBe('0.1.0');
    expect(elementAt(tree, 900, 200)?.element_id).toBe('0.1');
    expect(elementAt(tree, 900, 2000)).toBeNull();
  });

  test('character references are decoded once: newlines, tabs, an emoji as two UTF-16 halves, and an escaped & stays literal', () => {
    const node = (text: string) => `<?xml version='1.0' ?><hierarchy rotation="0"><node index="0" text="${text}" class="android.widget.TextView" bounds="[0,0][10,10]" /></hierarchy>`;
    expect(parseUiDump(node('Line1&#10;Line2&#9;end')).map((e) => e.text)).toEqual(['Line1\nLine2\tend']);
    expect(parseUiDump(node('hi &#55357;&#56832; &#x1F600;')).map((e) => e.text)).toEqual(['hi 😀 😀']);
    expect(parseUiDump(node('&amp;#10; &amp;amp; &lt;b&gt; &quot;q&quot; &apos;a&apos;')).map((e) => e.text)).toEqual(['&#10; &amp; <b> "q" \'a\'']);
    expect(parseUiDump(node('&#99999999; &nbsp;')).map((e) => e.text)).toEqual(['&#99999999; &nbsp;']);
  });

  test('scrollable comes from the dump’s attribute', () => {
    const list = `<?xml version='1.0' ?><hierarchy rotation="0"><node index="0" class="androidx.recyclerview.widget.RecyclerView" scrollable="true" bounds="[0,252][1080,2340]"><node index="0" class="android.view.ViewGroup" scrollable="false" bounds="[0,252][1080,504]" /></node></hierarchy>`;
    expect(parseUiDump(list).map((e) => e.scrollable)).toEqual([true, false]);
  });

  test('garbage is a host fault, not a crash', () => {
    expect(() => parseUiDump('<not-a-dump/>')).toThrow(/hierarchy/);
  });
});

describe('dumpsys', () => {
  test('the focused window, falling back to the focused app when a system window has focus', () => {
    expect(currentAppFromWindows('  mCurrentFocus=Window{8e1a3c0 u0 com.example.shop/com.example.shop.CatalogActivity}\n  mFocusedApp=ActivityRecord{1 u0 com.example.shop/.CatalogActivity t9}\n')).toEqual({
      package: 'com.example.shop',
      activity: 'com.example.shop.CatalogActivity',
    });
    expect(currentAppFromWindows('  mCurrentFocus=Window{5 u0 NotificationShade}\n  mFocusedApp=ActivityRecord{2f9d2 u0 com.android.launcher3/.uioverrides.QuickstepLauncher t7}\n')).toEqual({
      package: 'com.android.launcher3',
      activity: 'com.android.launcher3.uioverrides.QuickstepLauncher',
    });
    expect(currentAppFromWindows('  mCurrentFocus=null\n')).toBeNull();
    expect(currentAppFromActivities('    mResumedActivity: ActivityRecord{a1 u0 org.example/.Main t3}\n')).toEqual({ package: 'org.example', activity: 'org.example.Main' });
    expect(currentAppFromActivities('  topResumedActivity=ActivityRecord{a1 u0 org.example/org.example.ui.Home t3}\n')).toEqual({ package: 'org.example', activity: 'org.example.ui.Home' });
  });

  test('packages and their versions', () => {
    expect(parsePackageList('package:com.a.b\npackage:org.c versionCode:3\n\nError: junk\n')).toEqual(['com.a.b', 'org.c']);
    const versions = parsePackageVersions(
      'Packages:\n  Package [com.a.b] (3c1):\n    userId=10100\n    versionCode=42 minSdk=24 targetSdk=34\n    versionName=4.2 beta\n  Package [org.c] (9f):\n    versionCode=7 minSdk=21 targetSdk=33\n',
    );
    expect(versions.get('com.a.b')).toEqual({ version_name: '4.2 beta', version_code: 42 });
    expect(versions.get('org.c')).toEqual({ version_name: '', version_code: 7 });
  });
});

describe('am start answers', () => {
  test('successes, including names holding "Error" and a task brought to the front', () => {
    expect(amStartFailure('Starting: Intent { cmp=com.x/.ErrorReportActivity }\nStatus: ok\nLaunchState: COLD\nActivity: com.x/.ErrorReportActivity\nTotalTime: 301\nWaitTime: 305\nComplete\n')).toBeNull();
    expect(amStartFailure('Starting: Intent { act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] cmp=com.x/.Main }\nWarning: Activity not started, its current task has been brought to the front\nStatus: ok\nComplete\n')).toBeNull();
  });

  test('failures as Android 7–14 print them', () => {
    expect(amStartFailure('Starting: Intent { cmp=com.x/.Nope }\nError type 3\nError: Activity class {com.x/com.x.Nope} does not exist.\n')).toEqual({ kind: 'not_found', reason: 'Activity class {com.x/com.x.Nope} does not exist.' });
    expect(amStartFailure('Starting: Intent { cmp=com.x/.Secret }\njava.lang.SecurityException: Permission Denial: starting Intent { flg=0x10000000 cmp=com.x/.Secret } from null (pid=1, uid=2000) not exported from uid 10080\n\tat android.os.Parcel.readException(Parcel.java:1684)\n')).toMatchObject({ kind: 'not_exported' });
    expect(amStartFailure("Starting: Intent { cmp=com.x/.Secret }\nException occurred while executing 'start':\njava.lang.SecurityException: Permission Denial: starting Intent { cmp=com.x/.Secret } from null (pid=1, uid=2000) requires android.permission.CAMERA\n")).toMatchObject({ kind: 'refused', reason: expect.stringContaining('requires android.permission.CAMERA') });
    expect(amStartFailure('Starting: Intent { act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] pkg=com.x }\nError: Activity not started, unable to resolve Intent { act=android.intent.action.MAIN flg=0x10000000 pkg=com.x }\n')).toMatchObject({ kind: 'not_found' });
    expect(amStartFailure("Exception occurred while executing 'start':\njava.lang.IllegalArgumentException: Unknown option: -Q\n")).toMatchObject({ kind: 'refused', reason: 'java.lang.IllegalArgumentException: Unknown option: -Q' });
  });
});

describe('rotation', () => {
  test('the valid internal viewport of dumpsys display (Android 10–14), and a dump’s hierarchy', () => {
    const dump =
      "  mViewports=[DisplayViewport{type=EXTERNAL, valid=false, isActive=false, displayId=2, orientation=0, deviceWidth=0, deviceHeight=0}, DisplayViewport{type=INTERNAL, valid=true, isActive=true, displayId=0, uniqueId='local:4619827259835644672', physicalPort=0, orientation=3, logicalFrame=Rect(0, 0 - 2400, 1080), physicalFrame=Rect(0, 0 - 2400, 1080), deviceWidth=2400, deviceHeight=1080}]";
    expect(rotationFromDisplayDump(dump)).toBe(3);
    expect(rotationFromDisplayDump('DISPLAY MANAGER (dumpsys display)\n')).toBeNull();
    expect(rotationFromUiDump(`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="1"><node/></hierarchy>`)).toBe(1);
  });
});

describe('dumpsys window displays', () => {
  const section = (id: number, focus: string, app: string) => `  Display: mDisplayId=${id} rootTasks=2\n    init=1080x2400 420dpi\n    mCurrentFocus=${focus}\n    mFocusedApp=${app}\n`;
  test('the display whose focused window belongs to its focused app, the main display first; else the main display’s app', () => {
    const cast = section(2, 'Window{1 u0 com.cast/com.cast.Show}', 'ActivityRecord{2 u0 com.cast/.Show t3}');
    const main = (focus: string) => section(0, focus, 'ActivityRecord{4 u0 com.shop/.Main t5}');
    expect(currentAppFromDisplays(cast + main('Window{3 u0 com.shop/com.shop.Main}'))).toEqual({ package: 'com.shop', activity: 'com.shop.Main' });
    expect(currentAppFromDisplays(section(2, 'null', 'ActivityRecord{2 u0 com.cast/.Show t3}') + main('Window{9 u0 NotificationShade}'))).toEqual({ package: 'com.shop', activity: 'com.shop.Main' });
    // Only the cast display agrees with itself: it is the one with the app's own window in focus.
    expect(currentAppFromDisplays(cast + main('Window{9 u0 NotificationShade}'))).toEqual({ package: 'com.cast', activity: 'com.cast.Show' });
    expect(currentAppFromDisplays('WINDOW MANAGER WINDOWS (dumpsys window windows)\n  mCurrentFocus=Window{1 u0 a.b/a.b.C}\n')).toBeNull();
  });
});

test('pm list packages --show-versioncode, and a build that does not know the option', () => {
  expect(parsePackageCodes('package:com.example.shop versionCode:241\npackage:org.x versionCode:9\n')).toEqual([
    { package: 'com.example.shop', version_code: 241 },
    { package: 'org.x', version_code: 9 },
  ]);
  expect(parsePackageCodes('package:com.old\n')).toEqual([{ package: 'com.old', version_code: null }]);
  expect(parsePackageCodes('Error: Unknown option: --show-versioncode\n')).toEqual([]);
});
