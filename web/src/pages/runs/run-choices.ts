// Choices for the run filters and the report form: the user's macros and devices, the
// every page of each.
import { useAsync } from '../../lib/use-async';
import type { Choice } from './ReportRunModal';
import { allDevices } from '../devices/devices-api';
import { allMacros } from '../macros/macros-api';

export interface RunChoices {
  macros: (Choice & { kind: 'python' | 'block' })[];
  devices: Choice[];
}

export function useRunChoices(): RunChoices {
  const macros = useAsync(allMacros, []);
  const devices = useAsync(() => allDevices(), []);
  return {
    macros: (macros.data ?? []).map((m) => ({ value: String(m.id), label: m.name, kind: m.kind })),
    devices: (devices.data ?? []).map((d) => ({ value: String(d.id), label: d.is_hosted ? `${d.name} (cloud)` : `${d.name} (port ${d.port})` })),
  };
}
