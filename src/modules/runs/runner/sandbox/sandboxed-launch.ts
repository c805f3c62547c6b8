// One Python run inside its sandbox: the bridges it reaches the world through (the device RPC,
// the egress proxy, on `adb` hosts the ADB server) as Unix sockets in a folder of the run's
// own, the environment as seen from inside, and the command (bwrap-command.ts around the
// limits wrapper). `close` ends the bridges once the run is over.
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type AddressPolicy, systemResolver, type Resolver } from '../../../../lib/address-policy.js';
import type { RunUser } from '../../../../lib/run-user.js';
import type { RunSandboxSettings } from '../../../../config.js';
import { type AdbTarget, buildRunEnvironment, type RunEnvironmentInput } from '../environment.js';
import { limitedCommand } from '../limits.js';
import { BRIDGE_PORTS, INSIDE, sandboxedCommand } from './bwrap-command.js';
import { openEgressProxy } from './egress-proxy.js';
import { openRpcBridge } from './rpc-bridge.js';
import { openTcpBridge } from './tcp-bridge.js';
import type { Listening } from './unix-server.js';

export interface SandboxLaunchInput {
  sandbox: RunSandboxSettings;
  /** The name resolver of the egress proxy; the system's unless a test controls it. */
  resolver?: Resolver;
  maxMemoryMb: number;
  /** The run's folder (RUNS_DIR/<run>), its unpacked code and SDK copy. */
  root: string;
  codeDir: string;
  sdkDir: string;
  user: RunUser | null;
  command: string[];
  env: Omit<RunEnvironmentInput, 'home' | 'sdkDir'>;
}

export interface SandboxLaunch {
  argv: string[];
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function launchInSandbox(input: SandboxLaunchInput): Promise<SandboxLaunch> {
  const ids = input.user ?? { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
  const owner = input.user;
  const io = join(input.root, 'io');
  await mkdir(io, { mode: 0o711 });
  const socket = (name: string) => join(io, `${name}.sock`);
  const policy: AddressPolicy = { allowPrivate: input.sandbox.allowPrivateNetworks, resolver: input.resolver ?? systemResolver };
  const open: Listening[] = [];
  const close = async () => {
    await Promise.all(open.splice(0).map((bridge) => bridge.close()));
    await rm(io, { recursive: true, force: true });
  };
  try {
    open.push(await openRpcBridge(socket('rpc'), input.env.deviceUrl, owner));
    open.push(await openEgressProxy(socket('egress'), { upstreamUrl: input.env.proxyUrl, policy }, owner));
    const adb: AdbTarget | undefined = input.env.adb ? { serial: input.env.adb.serial, host: '127.0.0.1', port: BRIDGE_PORTS.adb } : undefined;
    if (input.env.adb) open.push(await openTcpBridge(socket('adb'), input.env.adb.host, input.env.adb.port, owner));
    const bridges: [number, string][] = [
      [BRIDGE_PORTS.rpc, `${INSIDE.io}/rpc.sock`],
      [BRIDGE_PORTS.egress, `${INSIDE.io}/egress.sock`],
      ...(adb ? [[BRIDGE_PORTS.adb, `${INSIDE.io}/adb.sock`] as [number, string]] : []),
    ];
    const outside = new URL(input.env.deviceUrl);
    const env = buildRunEnvironment({
      ...input.env,
      home: INSIDE.home,
      sdkDir: INSIDE.sdk,
      deviceUrl: `http://127.0.0.1:${BRIDGE_PORTS.rpc}${outside.pathname}`,
      adb,
      proxyUrl: `http://127.0.0.1:${BRIDGE_PORTS.egress}`,
    });
    // Calls to the RPC bridge on the sandbox's loopback never go through the egress proxy.
    env.NO_PROXY = env.no_proxy = '127.0.0.1,localhost';
    const steps = { maxProcesses: input.sandbox.maxProcesses, copy: [INSIDE.code, INSIDE.work] as [string, string], bridges };
    const layout = { ...ids, codeDir: input.codeDir, sdkDir: input.sdkDir, ioDir: io, diskMb: input.sandbox.maxDiskMb };
    return { argv: sandboxedCommand(layout, limitedCommand(input.command, input.maxMemoryMb, steps)), env, close };
  } catch (error) {
    await close();
    throw error;
  }
}
