// Choices for the run filters and the report form: macros (session route) and, when the
// console key covers devices:control, devices (key route; otherwise a device id is typed).
import { api, keyApi } from '../../api/client';
import { unwrap } from '../../api/errors';
import { useAsync } from '../../lib/use-async';
import { useConsoleKey } from '../../state/console-key';
import type { Choice } from './ReportRunModal';

export interface RunChoices {
  macros: (Choice & { kind: 'python' | 'block' })[];
  devices: Choice[];
}

export function useRunChoices(): RunChoices {
  const canListDevices = useConsoleKey().covers('devices:control');
  const macros = useAsync(() => unwrap(api.GET('/api/macros', { params: { query: { page_size: 200 } } })), []);
  const devices = useAsync(
    () => (canListDevices ? unwrap(keyApi.GET('/api/emulator/devices', { params: { query: { page_size: 200 } } })).then((r) => r.rows) : Promise.resolve([])),
    [canListDevices],
  );
  return {
    macros: (macros.data?.rows ?? []).map((m) => ({ value: String(m.id), label: m.name, kind: m.kind })),
    devices: (devices.data ?? []).map((d) => ({ value: String(d.id), label: d.is_hosted ? `${d.name} (cloud)` : `${d.name} (port ${d.port})` })),
  };
}
