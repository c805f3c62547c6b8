// What a schedule can point at, for its form and for naming its target in the tables: the
// user's macros, cloud devices and cloud groups (every page of each; a schedule runs only
// on the cloud, so local devices and byod groups are not offered).
import type { Schedule } from '../../api/types';
import { useAsync } from '../../lib/use-async';
import { allDevices, allGroups } from '../devices/devices-api';
import { allMacros } from '../macros/macros-api';

type Choice = { value: string; label: string };

export interface ScheduleChoices {
  macros: Choice[];
  devices: Choice[];
  groups: Choice[];
  /** "Pixel cloud (device 7)", or the id alone while the names load (or for a device deleted since). */
  targetName(s: Schedule): string;
  /** A device's name ("Pixel cloud"), or "device 7" while the names load or once it is deleted. */
  deviceName(id: number): string;
}

export function useScheduleChoices(): ScheduleChoices {
  const macros = useAsync(allMacros, []);
  const devices = useAsync(() => allDevices(), []);
  const groups = useAsync(() => allGroups(), []);
  const deviceChoices = (devices.data ?? []).filter((d) => d.is_hosted).map((d) => ({ value: String(d.id), label: d.name }));
  const groupChoices = (groups.data ?? []).filter((g) => g.kind === 'cloud').map((g) => ({ value: String(g.id), label: g.name }));
  const named = (list: Choice[], id: number, noun: string) => {
    const found = list.find((c) => c.value === String(id));
    return found ? `${found.label} (${noun} ${id})` : `${noun} #${id}`;
  };
  return {
    macros: (macros.data ?? []).map((m) => ({ value: String(m.id), label: m.name })),
    devices: deviceChoices,
    groups: groupChoices,
    deviceName: (id) => (devices.data ?? []).find((d) => d.id === id)?.name ?? `device ${id}`,
    targetName: (s) => (s.device_id !== undefined ? named(deviceChoices, s.device_id, 'device') : s.group_id !== undefined ? named(groupChoices, s.group_id, 'group') : '—'),
  };
}
