// Reads an APK's package name, label and version from its binary AndroidManifest.xml with
// adbkit-apkreader. Anything it cannot read (not a zip, no manifest, no package) is not an APK.
import type ApkReaderModule from '@devicefarmer/adbkit-apkreader';
import { packageOnDemand } from '../../../../lib/package-on-demand.js';
import { adbkit } from '../adb/adbkit.js';

// Loaded with the first APK read, not at start-up (lib/package-on-demand.ts). adbkit first:
// loading it switches on bluebird's cancellation, which bluebird allows only before any of its
// promises exists, and the APK reader makes bluebird promises.
const loadApkReader = packageOnDemand<typeof ApkReaderModule>('@devicefarmer/adbkit-apkreader');
const apkReader = () => {
  adbkit();
  return loadApkReader();
};
import { InvalidApkError } from '../errors.js';
import type { ApkInfo } from '../types.js';

const PACKAGE_PATTERN = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/;

/**
 * A label written in the manifest is a plain string; most store apps point it at a string
 * resource instead (`resourceId:0x7f…`), which needs the resource table to resolve. Those
 * fall back to the launcher activity's label, then to the package name.
 */
function literalLabel(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' && !value.startsWith('resourceId:') ? value.trim() : undefined;
}

export async function readApkManifest(file: string): Promise<ApkInfo> {
  let manifest;
  try {
    manifest = await (await apkReader().open(file)).readManifest();
  } catch (error) {
    throw new InvalidApkError(`its AndroidManifest.xml cannot be read (${(error as Error).message})`);
  }
  const pkg = manifest.package;
  if (typeof pkg !== 'string' || !PACKAGE_PATTERN.test(pkg)) throw new InvalidApkError('its manifest names no valid package');
  const versionCode = Number(manifest.versionCode ?? 0);
  const app = manifest.application ?? undefined;
  const label = literalLabel(app?.label) ?? app?.launcherActivities?.map((a) => literalLabel(a.label)).find((l) => l !== undefined) ?? pkg;
  return {
    package: pkg,
    label,
    version_name: manifest.versionName === undefined || manifest.versionName === null ? '' : String(manifest.versionName),
    version_code: Number.isSafeInteger(versionCode) && versionCode >= 0 ? versionCode : 0,
  };
}
