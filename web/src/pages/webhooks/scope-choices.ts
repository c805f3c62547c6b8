// Groups and devices to scope an endpoint to (key routes, devices:control; the webhook
// pages already hold a full-access key, which covers them).
import { keyApi } from '../../api/client';
import { unwrap } from '../../api/errors';
import { useAsync } from '../../lib/use-async';

export interface ScopeChoices {
  groups: { value: string; label: string }[];
  devices: { value: string; label: string }[];
}

export function useScopeChoices(): ScopeChoices {
  const groups = useAsync(() => unwrap(keyApi.GET('/api/emulator/groups', { params: { query: { page_size: 200 } } })), []);
  const devices = useAsync(() => unwrap(keyApi.GET('/api/emulator/devices', { params: { query: { page_size: 200 } } })), []);
  return {
    groups: (groups.data?.rows ?? []).map((g) => ({ value: String(g.id), label: g.name })),
    devices: (devices.data?.rows ?? []).map((d) => ({ value: String(d.id), label: d.name })),
  };
}
