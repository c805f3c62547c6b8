// A Python run's environment (decisions.md §10): exactly these variables and nothing of the
// server's own (its PATH, secrets, DATABASE_URL, …). Built here in one place, so a test can
// compare it whole.
import type { RunArgs } from '../arguments/merge.js';

export interface AdbTarget {
  serial: string;
  /** The ADB server the device is on. */
  host: string;
  port: number;
}

export interface RunEnvironmentInput {
  /** RUN_PATH. */
  path: string;
  /** The run's private home folder. */
  home: string;
  /** The folder holding the `svc_device` package. */
  sdkDir: string;
  args: RunArgs;
  executionId: string;
  /** Where `svc_device` sends its calls: `{base}/api/runs/devices/{device_id}`. */
  deviceUrl: string;
  token: string;
  /** On `adb` hosts: the device and its ADB server. */
  adb?: AdbTarget;
  /** The device's proxy as a URL (`http://user:pass@host:port`, `socks5://…`); the macro's own traffic goes through it. */
  proxyUrl?: string;
}

export function buildRunEnvironment(input: RunEnvironmentInput): Record<string, string> {
  return {
    PATH: input.path,
    HOME: input.home,
    LANG: 'C.UTF-8',
    PYTHONUNBUFFERED: '1',
    PYTHONPATH: input.sdkDir,
    MACRO_ARGS: JSON.stringify(input.args),
    SVC_EXECUTION_ID: input.executionId,
    SVC_DEVICE_URL: input.deviceUrl,
    SVC_RUN_TOKEN: input.token,
    ...(input.adb
      ? { ANDROID_SERIAL: input.adb.serial, ANDROID_ADB_SERVER_ADDRESS: input.adb.host, ANDROID_ADB_SERVER_PORT: String(input.adb.port) }
      : {}),
    ...(input.proxyUrl ? { HTTP_PROXY: input.proxyUrl, HTTPS_PROXY: input.proxyUrl, ALL_PROXY: input.proxyUrl } : {}),
  };
}
