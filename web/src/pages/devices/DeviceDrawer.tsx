// One device, opened from the list (`/devices?device=12`): what it follows, its runs, the
// proxy it goes through and, for a cloud device, the cloud section (cloud/): lifecycle, live
// view and tap, screenshot, apps and APKs, starting a run. There is no route that reads one device,
// so the drawer shows the row the list already has.
import { Anchor, Button, Card, DataList, Drawer, Group, Stack, Text, Title } from '@mantine/core';
import type { Device } from '../../api/types';
import { Link } from '../../app/router';
import { exactTime } from '../../components/Time';
import { useLayerEscape } from '../../lib/use-layer-escape';
import { CloudDeviceSection } from './cloud/CloudDeviceSection';
import { DeviceProxySection } from './DeviceProxySection';
import type { Lookups } from './lookups';

export function DeviceDrawer({ device, lookups, onClose, onEdit, onChanged }: { device: Device | null; lookups: Lookups; onClose: () => void; onEdit: (device: Device) => void; onChanged: () => void }) {
  // The cloud section opens dialogs over the drawer: Escape in one of them closes only it.
  const layer = useLayerEscape<HTMLDivElement>(device !== null, onClose);
  return (
    <Drawer ref={layer} closeOnEscape={false} opened={device !== null} onClose={onClose} position="right" size={device?.is_hosted ? 'xl' : 'lg'} title={device?.name}>
      {device && (
        <Stack gap="md">
          <Card aria-labelledby="device-summary-title">
            <Group justify="space-between" mb="xs">
              <Title id="device-summary-title" order={3} fz="sm">Summary</Title>
              <Button size="xs" variant="default" onClick={() => onEdit(device)}>Edit device</Button>
            </Group>
            <DataList labelWidth={130}>
              <DataList.Item><DataList.ItemLabel>Device id</DataList.ItemLabel><DataList.ItemValue>{device.id}</DataList.ItemValue></DataList.Item>
              <DataList.Item><DataList.ItemLabel>Where</DataList.ItemLabel><DataList.ItemValue>{device.is_hosted ? 'Cloud' : `Your machine, ADB port ${device.port}`}</DataList.ItemValue></DataList.Item>
              <DataList.Item><DataList.ItemLabel>Group</DataList.ItemLabel><DataList.ItemValue>{lookups.groupName(device.group_id) ?? '—'}</DataList.ItemValue></DataList.Item>
              <DataList.Item><DataList.ItemLabel>Macro</DataList.ItemLabel><DataList.ItemValue>{device.macro_id ? <Anchor component={Link} to={`/macros/${device.macro_id}`} size="sm" underline="always">{lookups.macroName(device.macro_id)}</Anchor> : '—'}</DataList.ItemValue></DataList.Item>
              <DataList.Item><DataList.ItemLabel>Settings profile</DataList.ItemLabel><DataList.ItemValue>{device.profile_id ? `Profile ${device.profile_id}` : 'The macro’s Default'}</DataList.ItemValue></DataList.Item>
              <DataList.Item><DataList.ItemLabel>Runs</DataList.ItemLabel><DataList.ItemValue><Anchor component={Link} to={`/runs?device_id=${device.id}`} size="sm" underline="always">{device.run_count} in the run history</Anchor></DataList.ItemValue></DataList.Item>
              <DataList.Item><DataList.ItemLabel>Added</DataList.ItemLabel><DataList.ItemValue>{exactTime(device.created_at)}</DataList.ItemValue></DataList.Item>
              <DataList.Item><DataList.ItemLabel>Changed</DataList.ItemLabel><DataList.ItemValue>{exactTime(device.updated_at)}</DataList.ItemValue></DataList.Item>
            </DataList>
          </Card>
          {device.is_hosted && <CloudDeviceSection device={device} macros={lookups.macros} onChanged={onChanged} onDeleted={() => { onClose(); onChanged(); }} />}
          <DeviceProxySection deviceId={device.id} />
          <Text size="xs" c="dimmed">Deleting a device is in the list’s row actions; its run history stays.</Text>
        </Stack>
      )}
    </Drawer>
  );
}
