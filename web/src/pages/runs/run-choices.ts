// Choices for the run filters and the report form: the user's macros and devices, the
// first 200 of each.
import { useAsync } from '../../lib/use-async';
import type { Choice } from './ReportRunModal';
import { CHOICES_PAGE, listDevices } from '../devices/devices-api';
import { listMacros } from '../macros/macros-api';

export interface RunChoices {
  macros: (Choice & { kind: 'python' | 'block' })[];
  devices: Choice[];
}

export function useRunChoices(): RunChoices {
  const macros = useAsync(() => listMacros({ page_size: CHOICES_PAGE }), []);
  const devices = useAsync(() => listDevices({ page_size: CHOICES_PAGE }).then((r) => r.rows), []);
  return {
    macros: (macros.data?.rows ?? []).map((m) => ({ value: String(m.id), label: m.name, kind: m.kind })),
    devices: (devices.data ?? []).map((d) => ({ value: String(d.id), label: d.is_hosted ? `${d.name} (cloud)` : `${d.name} (port ${d.port})` })),
  };
}
