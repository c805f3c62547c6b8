// Choices for the run filters and the report form: the user's macros and devices, the
// first 200 of each.
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { useAsync } from '../../lib/use-async';
import type { Choice } from './ReportRunModal';

export interface RunChoices {
  macros: (Choice & { kind: 'python' | 'block' })[];
  devices: Choice[];
}

export function useRunChoices(): RunChoices {
  const macros = useAsync(() => unwrap(api.GET('/api/macros', { params: { query: { page_size: 200 } } })), []);
  const devices = useAsync(() => unwrap(api.GET('/api/emulator/devices', { params: { query: { page_size: 200 } } })).then((r) => r.rows), []);
  return {
    macros: (macros.data?.rows ?? []).map((m) => ({ value: String(m.id), label: m.name, kind: m.kind })),
    devices: (devices.data ?? []).map((d) => ({ value: String(d.id), label: d.is_hosted ? `${d.name} (cloud)` : `${d.name} (port ${d.port})` })),
  };
}
