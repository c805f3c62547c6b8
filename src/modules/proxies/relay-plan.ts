// How a device reaches its assigned proxy (decisions.md §6, the relay recipe), as steps: the
// connection-info route renders them as `adb` command lines for the application, and a cloud
// run on an `adb` host applies the same steps itself (docs/runs.md). One place decides the
// mode, the local port and the steps, so the two never disagree.
import type { AssignmentRow } from './assignments.js';
import type { ProxyRow } from './present.js';

/** Local relay ports: one per assignment, in a range adb reverse and the host leave free. */
const RELAY_PORT_BASE = 20_000;
const RELAY_PORT_SPAN = 10_000;

export const relayPort = (assignmentId: number) => RELAY_PORT_BASE + (assignmentId % RELAY_PORT_SPAN);

/** One device step: `adb reverse tcp:P tcp:P`, `adb reverse --remove tcp:P`, `settings put global http_proxy V`. */
export type RelayStep = { kind: 'reverse'; port: number } | { kind: 'remove_reverse'; port: number } | { kind: 'http_proxy'; value: string };

export interface RelayPlan {
  /** `local_relay`: an unauthenticated HTTP relay on 127.0.0.1 forwards to the proxy; `direct`: the device uses the proxy itself. */
  mode: 'direct' | 'local_relay';
  /** What the device is pointed at: the relay, or (direct) the proxy. */
  local: { scheme: string; host: string; port: number };
  deviceSteps: RelayStep[];
  teardown: RelayStep[];
}

/** `:0` turns Android's global proxy off without a reboot. */
export const PROXY_OFF = ':0';

/**
 * Android's global proxy setting takes host:port only: no credentials and no SOCKS. So an
 * authenticated or SOCKS5/HTTPS proxy is reached through an unauthenticated HTTP relay that
 * runs on the device's host at 127.0.0.1 (forwarding to the proxy with its credentials),
 * exposed to the device by `adb reverse`. A plain HTTP proxy without credentials is set directly.
 */
export function relayPlan(assignment: Pick<AssignmentRow, 'id'>, proxy: Pick<ProxyRow, 'scheme' | 'host' | 'port' | 'username'>): RelayPlan {
  if (!proxy.username && proxy.scheme === 'http') {
    const host = proxy.host.includes(':') ? `[${proxy.host}]` : proxy.host;
    return {
      mode: 'direct',
      local: { scheme: proxy.scheme, host: proxy.host, port: proxy.port },
      deviceSteps: [{ kind: 'http_proxy', value: `${host}:${proxy.port}` }],
      teardown: [{ kind: 'http_proxy', value: PROXY_OFF }],
    };
  }
  const port = relayPort(assignment.id);
  return {
    mode: 'local_relay',
    local: { scheme: 'http', host: '127.0.0.1', port },
    deviceSteps: [
      { kind: 'reverse', port },
      { kind: 'http_proxy', value: `127.0.0.1:${port}` },
    ],
    teardown: [
      { kind: 'http_proxy', value: PROXY_OFF },
      { kind: 'remove_reverse', port },
    ],
  };
}

/** The step as a command line after `adb` (or `adb -s SERIAL`). */
export function stepCommand(adb: string, step: RelayStep): string {
  if (step.kind === 'reverse') return `${adb} reverse tcp:${step.port} tcp:${step.port}`;
  if (step.kind === 'remove_reverse') return `${adb} reverse --remove tcp:${step.port}`;
  return `${adb} shell settings put global http_proxy ${step.value}`;
}
