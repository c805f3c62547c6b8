// What a schedule can point at, for its form and for naming its target in the tables: the
// user's macros, cloud devices and cloud groups (the first 200 of each; a schedule runs only
// on the cloud, so local devices and byod groups are not offered).
import type { Schedule } from '../../api/types';
import { useAsync } from '../../lib/use-async';
import { CHOICES_PAGE, listDevices, listGroups } from '../devices/devices-api';
import { listMacros } from '../macros/macros-api';

type Choice = { value: string; label: string };

export interface ScheduleChoices {
  macros: Choice[];
  devices: Choice[];
  groups: Choice[];
  /** "Pixel cloud (device 7)", or the id alone while the names load or when it is past the first 200. */
  targetName(s: Schedule): string;
}

export function useScheduleChoices(): ScheduleChoices {
  const macros = useAsync(() => listMacros({ page_size: CHOICES_PAGE }), []);
  const devices = useAsync(() => listDevices({ page_size: CHOICES_PAGE }), []);
  const groups = useAsync(() => listGroups({ page_size: CHOICES_PAGE }), []);
  const deviceChoices = (devices.data?.rows ?? []).filter((d) => d.is_hosted).map((d) => ({ value: String(d.id), label: d.name }));
  const groupChoices = (groups.data?.rows ?? []).filter((g) => g.kind === 'cloud').map((g) => ({ value: String(g.id), label: g.name }));
  const named = (list: Choice[], id: number, noun: string) => {
    const found = list.find((c) => c.value === String(id));
    return found ? `${found.label} (${noun} ${id})` : `${noun} #${id}`;
  };
  return {
    macros: (macros.data?.rows ?? []).map((m) => ({ value: String(m.id), label: m.name })),
    devices: deviceChoices,
    groups: groupChoices,
    targetName: (s) => (s.device_id !== undefined ? named(deviceChoices, s.device_id, 'device') : s.group_id !== undefined ? named(groupChoices, s.group_id, 'group') : '—'),
  };
}
