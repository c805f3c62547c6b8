// Groups and devices to scope an endpoint to, the first 200 of each.
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { useAsync } from '../../lib/use-async';

export interface ScopeChoices {
  groups: { value: string; label: string }[];
  devices: { value: string; label: string }[];
}

export function useScopeChoices(): ScopeChoices {
  const groups = useAsync(() => unwrap(api.GET('/api/emulator/groups', { params: { query: { page_size: 200 } } })), []);
  const devices = useAsync(() => unwrap(api.GET('/api/emulator/devices', { params: { query: { page_size: 200 } } })), []);
  return {
    groups: (groups.data?.rows ?? []).map((g) => ({ value: String(g.id), label: g.name })),
    devices: (devices.data?.rows ?? []).map((d) => ({ value: String(d.id), label: d.name })),
  };
}
