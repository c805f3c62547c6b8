// Menu maps: the apps with a learned map, and exploring an app on a cloud device to learn (or
// relearn) its map, followed until it ends. The app is chosen from the device's installed apps
// (typed only when the device is not running, so its apps cannot be read).
import { Alert, Button, Group, Modal, NumberInput, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { ApiError } from '../../api/errors';
import { Link } from '../../app/router';
import { Empty } from '../../components/Empty';
import { ErrorAlert } from '../../components/ErrorAlert';
import { MapIcon } from '../../components/icons';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { Time } from '../../components/Time';
import { useAction, useAsync } from '../../lib/use-async';
import { listApps } from '../devices/cloud/cloud-api';
import { cloudDevices, type Exploration, getExploration, listMaps, startExploration, stopExploration } from './maps-api';

export function MapsPage() {
  const maps = useAsync(listMaps, []);
  const [open, setOpen] = useState(false);
  const [exploration, setExploration] = useState<Exploration>();
  const explore = (
    <Button onClick={() => setOpen(true)} disabled={exploration !== undefined && isLive(exploration)}>
      Explore an app
    </Button>
  );
  return (
    <>
      <PageHeader title="Menu maps" description="What the explorer learned about your apps: their screens and how to get from one to another. AI clients read them with map_get." actions={explore} />
      {exploration && <ExplorationProgress exploration={exploration} onChange={(e) => { setExploration(e); if (!isLive(e)) maps.reload(); }} />}
      {maps.error !== undefined && <ErrorAlert error={maps.error} />}
      {maps.loading && !maps.data ? (
        <Loading />
      ) : maps.data && maps.data.length === 0 && exploration && isLive(exploration) ? (
        // Not "No maps yet" under a running exploration: the first map is on its way.
        <Empty icon={<MapIcon size={28} />} title="Your first map is being learned">
          It appears here when the exploration above ends.
        </Empty>
      ) : maps.data && maps.data.length === 0 ? (
        <Empty icon={<MapIcon size={28} />} title="No maps yet">
          Explore an app on one of your cloud devices: the explorer taps through its screens and draws the map here.
        </Empty>
      ) : (
        <Table striped highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>App</Table.Th>
              <Table.Th>Screens</Table.Th>
              <Table.Th>Transitions</Table.Th>
              <Table.Th>Learned</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(maps.data ?? []).map((m) => (
              <Table.Tr key={m.package}>
                <Table.Td><Link to={`/maps/${m.package}`}>{m.package}</Link></Table.Td>
                <Table.Td>{m.screen_count}</Table.Td>
                <Table.Td>{m.transition_count}</Table.Td>
                <Table.Td><Time value={m.updated_at} /></Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <ExploreModal opened={open} onClose={() => setOpen(false)} onStarted={(e) => { setOpen(false); setExploration(e); }} />
    </>
  );
}

const isLive = (e: Exploration) => e.state === 'queued' || e.state === 'running';

/** An exploration's state as a person reads it. */
const STATE_WORDS: Record<string, string> = { queued: 'waiting for the device', running: 'exploring', done: 'done', failed: 'failed', stopped: 'stopped' };

function ExplorationProgress({ exploration, onChange }: { exploration: Exploration; onChange(e: Exploration): void }) {
  const stop = useAction(stopExploration);
  useEffect(() => {
    if (!isLive(exploration)) return;
    const timer = setTimeout(() => void getExploration(exploration.id).then(onChange, () => undefined), 700);
    return () => clearTimeout(timer);
  }, [exploration, onChange]);
  const color = exploration.state === 'failed' ? 'red' : exploration.state === 'done' ? 'teal' : 'blue';
  return (
    <Alert color={color} mb="lg" role="status" title={`Exploring ${exploration.package}: ${STATE_WORDS[exploration.state] ?? exploration.state}`}>
      <Group justify="space-between">
        <Text size="sm">
          {exploration.screens_found} screens, {exploration.transitions_found} transitions, {exploration.actions} actions
          {exploration.state_message ? ` — ${exploration.state_message}` : ''}
        </Text>
        {isLive(exploration) && (
          <Button size="xs" variant="default" loading={stop.pending} onClick={() => void stop.run(exploration.id).then((r) => r.ok && onChange(r.value))}>
            Stop
          </Button>
        )}
      </Group>
      {stop.error !== undefined && <ErrorAlert error={stop.error} />}
    </Alert>
  );
}

function ExploreModal({ opened, onClose, onStarted }: { opened: boolean; onClose(): void; onStarted(e: Exploration): void }) {
  const devices = useAsync(() => (opened ? cloudDevices() : Promise.resolve([])), [opened]);
  const [deviceId, setDeviceId] = useState<string | null>(null);
  const [pkg, setPkg] = useState('');
  const apps = useAsync(() => (opened && deviceId !== null ? listApps(Number(deviceId)) : Promise.resolve(null)), [opened, deviceId]);
  const notRunning = apps.error instanceof ApiError && apps.error.code === 'device_not_ready';
  const [maxScreens, setMaxScreens] = useState<number | string>(50);
  const start = useAction(startExploration);
  const submit = async () => {
    const answer = await start.run({ device_id: Number(deviceId), package: pkg.trim(), max_screens: Number(maxScreens) || 50 });
    if (answer.ok) onStarted(answer.value);
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Explore an app">
      <Stack>
        <Text size="sm" c="dimmed">
          The device is held for the exploration until it ends. Elements that say sign out, log out, delete, remove, uninstall, pay or buy are never tapped.
        </Text>
        <Select label="Cloud device" placeholder="Choose a device" data={(devices.data ?? []).map((d) => ({ value: String(d.id), label: d.name }))} value={deviceId} onChange={(value) => { setDeviceId(value); setPkg(''); }} />
        {notRunning ? (
          <TextInput label="App package" placeholder="com.example.shop" value={pkg} onChange={(e) => setPkg(e.currentTarget.value)}
            description="The device is not running, so its apps cannot be listed: type the package name, or start the device on its page to choose from its apps." />
        ) : (
          <Select label="App" searchable disabled={deviceId === null} value={pkg || null} onChange={(value) => setPkg(value ?? '')}
            placeholder={deviceId === null ? 'Choose a device first' : apps.loading ? 'Reading the device’s apps…' : 'Choose an app'}
            nothingFoundMessage="No installed app by that name"
            data={(apps.data ?? []).map((a) => ({ value: a.package, label: `${a.label} (${a.package})` }))} />
        )}
        {apps.error !== undefined && !notRunning && <ErrorAlert error={apps.error} title="Could not read the device’s apps" />}
        <NumberInput label="At most this many screens" min={1} max={500} value={maxScreens} onChange={setMaxScreens} />
        {start.error !== undefined && <ErrorAlert error={start.error} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>Cancel</Button>
          <Button onClick={() => void submit()} loading={start.pending} disabled={deviceId === null || pkg.trim() === ''}>
            Start exploring
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
