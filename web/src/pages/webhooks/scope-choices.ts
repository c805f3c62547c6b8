// Groups and devices to scope an endpoint to, the first 200 of each.
import { useAsync } from '../../lib/use-async';
import { CHOICES_PAGE, listDevices, listGroups } from '../devices/devices-api';

export interface ScopeChoices {
  groups: { value: string; label: string }[];
  devices: { value: string; label: string }[];
}

export function useScopeChoices(): ScopeChoices {
  const groups = useAsync(() => listGroups({ page_size: CHOICES_PAGE }), []);
  const devices = useAsync(() => listDevices({ page_size: CHOICES_PAGE }), []);
  return {
    groups: (groups.data?.rows ?? []).map((g) => ({ value: String(g.id), label: g.name })),
    devices: (devices.data?.rows ?? []).map((d) => ({ value: String(d.id), label: d.name })),
  };
}
