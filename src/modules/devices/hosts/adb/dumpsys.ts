// Reading the device's own reports: which activity is in front (`dumpsys window`, or
// `dumpsys activity activities` on builds that moved it), the third-party packages, and
// their versions (`dumpsys package packages`).
import type { CurrentApp } from '../types.js';

const COMPONENT = /\s([A-Za-z][\w.]*)\/([\w.$]+)[\s}]/;

function component(line: string | undefined): CurrentApp | null {
  const m = line ? COMPONENT.exec(`${line} `) : null;
  if (!m) return null;
  const activity = m[2].startsWith('.') ? `${m[1]}${m[2]}` : m[2];
  return { package: m[1], activity };
}

/**
 * From `dumpsys window displays` (Android 10+, each display with its own focus), cross-checked
 * as appium-adb does: the display whose focused window (mCurrentFocus) belongs to its focused
 * app (mFocusedApp), the main display first; else the main display's focused app (its window
 * may be a system one: the notification shade, a keyboard). Never simply the first
 * mFocusedApp line, which on a phone casting to a second display can be that display's.
 */
export function currentAppFromDisplays(output: string): CurrentApp | null {
  const sections = output
    .split(/^\s*Display: mDisplayId=/m)
    .slice(1)
    .map((text) => {
      const lines = text.split('\n');
      return { id: Number(/^(\d+)/.exec(text)?.[1] ?? -1), focus: component(lines.find((l) => /mCurrentFocus=/.test(l))), app: component(lines.find((l) => /mFocusedApp=/.test(l))) };
    })
    .sort((a, b) => Number(b.id === 0) - Number(a.id === 0));
  const agreed = sections.find((s) => s.focus && s.app && s.focus.package === s.app.package);
  if (agreed) return agreed.app;
  const main = sections[0];
  return main ? (main.app ?? main.focus) : null;
}

/** From `dumpsys window windows`: the focused window's activity, else the focused app's. */
export function currentAppFromWindows(output: string): CurrentApp | null {
  const lines = output.split('\n');
  return component(lines.find((l) => /mCurrentFocus=/.test(l))) ?? component(lines.find((l) => /mFocusedApp=/.test(l)));
}

/** From `dumpsys activity activities`: the resumed activity. */
export function currentAppFromActivities(output: string): CurrentApp | null {
  return component(output.split('\n').find((l) => /(mResumedActivity|topResumedActivity|ResumedActivity)[:=]/.test(l)));
}

/** `pm list packages` lines (`package:com.example`) → names. */
export function parsePackageList(output: string): string[] {
  return output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('package:'))
    .map((l) => l.slice('package:'.length).split(/\s/)[0])
    .filter((p) => p !== '');
}

/** `pm list packages --show-versioncode` lines (`package:com.example versionCode:12`) → names and codes; empty when the build does not know the option. */
export function parsePackageCodes(output: string): { package: string; version_code: number | null }[] {
  return output
    .split('\n')
    .map((l) => /^package:([A-Za-z][\w.]*)(?:\s+versionCode:(\d+))?\s*$/.exec(l.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ package: m[1], version_code: m[2] === undefined ? null : Number(m[2]) }));
}

export interface PackageVersion {
  version_name: string;
  version_code: number;
}

/** `dumpsys package packages` → versions by package. */
export function parsePackageVersions(output: string): Map<string, PackageVersion> {
  const versions = new Map<string, PackageVersion>();
  let current: string | undefined;
  for (const line of output.split('\n')) {
    const header = /^\s*Package \[([^\]]+)\]/.exec(line);
    if (header) {
      current = header[1];
      versions.set(current, { version_name: '', version_code: 0 });
      continue;
    }
    const entry = current ? versions.get(current) : undefined;
    if (!entry) continue;
    const code = /\bversionCode=(\d+)/.exec(line);
    if (code && entry.version_code === 0) entry.version_code = Number(code[1]);
    const name = /\bversionName=(.*)$/.exec(line);
    if (name && entry.version_name === '') entry.version_name = name[1].trim();
  }
  return versions;
}
