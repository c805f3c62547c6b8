// SIM_APPS_DIR (decisions.md §15): a folder of app descriptions (`*.json`) installed on every
// simulated device beside the built-in apps, so people try their macros against a mock of their
// own app. Read once at start-up; a file that does not parse, breaks a rule, or repeats a
// package (of a built-in app or an earlier file) stops the service with the file named.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../../../lib/config-error.js';
import { parseSimApp } from './app-rules.js';
import { SimAppDescriptionError, type SimApp } from './app-schema.js';
import { BUILTIN_APPS } from './catalogue.js';

const SETTING = 'SIM_APPS_DIR';

function listJsonFiles(dir: string): string[] {
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new ConfigError(SETTING, `${dir} does not exist`);
  }
  if (!isDir) throw new ConfigError(SETTING, `${dir} is not a folder`);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => join(dir, name));
}

function readDescription(file: string): SimApp {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(SETTING, `${file} is not valid JSON: ${(error as Error).message}`);
  }
  try {
    return parseSimApp(raw, file);
  } catch (error) {
    if (error instanceof SimAppDescriptionError) throw new ConfigError(SETTING, error.message);
    throw error;
  }
}

/** The descriptions in the folder, in file-name order, each checked; `extraPackages` are packages already taken (SIM_EXTRA_APPS). */
export function loadSimAppsDir(dir: string, extraPackages: readonly string[] = []): SimApp[] {
  const taken = new Map<string, string>();
  for (const app of BUILTIN_APPS) taken.set((app as SimApp).package, 'a built-in app');
  for (const pkg of extraPackages) taken.set(pkg, 'a built-in app (SIM_EXTRA_APPS)');
  const apps: SimApp[] = [];
  for (const file of listJsonFiles(dir)) {
    const app = readDescription(file);
    const holder = taken.get(app.package);
    if (holder) throw new ConfigError(SETTING, `${file} describes ${app.package}, which ${holder} already has`);
    taken.set(app.package, file);
    apps.push(app);
  }
  return apps;
}
