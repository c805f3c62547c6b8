// The apps installed on the device, and an APK upload: the file goes as the raw body with its
// upload progress shown; the API's sentence appears on a refusal (422 invalid_apk, 413, …).
import { Button, FileInput, Group, Progress, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { useAction, useAsync } from '../../../lib/use-async';
import { TEXT } from '../../../theme';
import { type InstalledApk, listApps, uploadApk } from './cloud-api';

export function AppsPanel({ deviceId }: { deviceId: number }) {
  const apps = useAsync(() => listApps(deviceId), [deviceId]);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState(0);
  const [installed, setInstalled] = useState<InstalledApk>();
  const install = useAction((chosen: File) => uploadApk(deviceId, chosen, setProgress));
  const send = async () => {
    if (!file) return;
    setProgress(0);
    setInstalled(undefined);
    const outcome = await install.run(file);
    if (outcome.ok) {
      setInstalled(outcome.value);
      setFile(null);
      apps.reload();
    }
  };
  const items = apps.data ?? [];
  return (
    <Stack gap="xs">
      <Text size="sm" fw={600}>Apps</Text>
      <Group align="flex-end" gap="xs">
        <FileInput label="Install an APK" description="An .apk file, at most 200 MiB" accept=".apk,application/vnd.android.package-archive" value={file} onChange={setFile} clearable w={260} size="xs" />
        <Button size="xs" disabled={!file} loading={install.pending} onClick={() => void send()}>Install</Button>
      </Group>
      {install.pending && <Progress value={progress * 100} aria-label="Uploading the APK" />}
      {install.pending && progress >= 1 && <Text size="xs" c="dimmed" role="status">Uploaded; the device is installing it…</Text>}
      {installed && <Text size="sm" c={TEXT.success} role="status">Installed {installed.label} ({installed.package} {installed.version_name}).</Text>}
      <ErrorAlert error={install.error} title="Could not install the APK" />
      <ErrorAlert error={apps.error} title="Could not list the apps" />
      {apps.loading && !apps.data ? (
        <Text size="sm" c="dimmed">Loading…</Text>
      ) : (
        <Table fz="sm" verticalSpacing={4} aria-label="Installed apps">
          <Table.Thead><Table.Tr><Table.Th>App</Table.Th><Table.Th>Package</Table.Th><Table.Th>Version</Table.Th></Table.Tr></Table.Thead>
          <Table.Tbody>
            {items.map((app) => (
              <Table.Tr key={app.package}><Table.Td>{app.label}</Table.Td><Table.Td className="mono">{app.package}</Table.Td><Table.Td>{app.version_name}</Table.Td></Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
