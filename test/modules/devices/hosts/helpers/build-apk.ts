// Builds a real (unsigned) APK with Debian's `aapt`, so install tests read a manifest that a
// real tool wrote. aapt needs the `android` package's attribute ids; without the SDK's
// android.jar we build a tiny stand-in framework package that declares the few attributes
// the manifest uses, with their real public ids.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const FRAMEWORK_ATTRS = `<?xml version="1.0" encoding="utf-8"?>
<resources>
  <attr name="label" format="string|reference"/>
  <attr name="name" format="string"/>
  <attr name="versionCode" format="integer"/>
  <attr name="versionName" format="string"/>
  <attr name="testOnly" format="boolean"/>
  <public type="attr" name="label" id="0x01010001"/>
  <public type="attr" name="name" id="0x01010003"/>
  <public type="attr" name="versionCode" id="0x0101021b"/>
  <public type="attr" name="versionName" id="0x0101021c"/>
  <public type="attr" name="testOnly" id="0x01010272"/>
</resources>
`;

let framework: Promise<string> | undefined;

async function buildFramework(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-apk-fw-'));
  mkdirSync(join(dir, 'res', 'values'), { recursive: true });
  writeFileSync(join(dir, 'AndroidManifest.xml'), '<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="android"/>\n');
  writeFileSync(join(dir, 'res', 'values', 'attrs.xml'), FRAMEWORK_ATTRS);
  const out = join(dir, 'framework.apk');
  await run('aapt', ['package', '-f', '-x', '-M', join(dir, 'AndroidManifest.xml'), '-S', join(dir, 'res'), '-F', out]);
  return out;
}

export interface ApkSpec {
  package: string;
  label: string;
  versionName: string;
  versionCode: number;
  /** android:testOnly, as Android Studio's Run builds are marked. */
  testOnly?: boolean;
}

/** Writes the APK to a fresh temp file and answers its path. */
export async function buildApk(spec: ApkSpec): Promise<string> {
  framework ??= buildFramework();
  const dir = mkdtempSync(join(tmpdir(), 'svc-apk-'));
  const manifest = join(dir, 'AndroidManifest.xml');
  writeFileSync(
    manifest,
    `<?xml version="1.0" encoding="utf-8"?>
<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="${spec.package}" android:versionCode="${spec.versionCode}" android:versionName="${spec.versionName}">
  <application android:label="${spec.label}"${spec.testOnly ? ' android:testOnly="true"' : ''}>
    <activity android:name=".MainActivity">
      <intent-filter><action android:name="android.intent.action.MAIN"/><category android:name="android.intent.category.LAUNCHER"/></intent-filter>
    </activity>
  </application>
</manifest>
`,
  );
  const out = join(dir, `${spec.package}.apk`);
  await run('aapt', ['package', '-f', '-M', manifest, '-I', await framework, '-F', out]);
  return out;
}
