// Groups and devices to scope an endpoint to, every page of each.
import { useAsync } from '../../lib/use-async';
import { allDevices, allGroups } from '../devices/devices-api';

export interface ScopeChoices {
  groups: { value: string; label: string }[];
  devices: { value: string; label: string }[];
}

export function useScopeChoices(): ScopeChoices {
  const groups = useAsync(() => allGroups(), []);
  const devices = useAsync(() => allDevices(), []);
  return {
    groups: (groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name })),
    devices: (devices.data ?? []).map((d) => ({ value: String(d.id), label: d.name })),
  };
}
