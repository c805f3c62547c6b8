// Starting a session: the goal in plain words and, optionally, the cloud device the agent
// tries things on (without one it writes from the goal and your answers alone).
import { Button, Group, Modal, Select, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAction, useAsync } from '../../lib/use-async';
import { type AuthoringSession, cloudDevices, startSession } from './authoring-api';

export function StartSessionModal({ opened, onClose, onStarted }: { opened: boolean; onClose(): void; onStarted(s: AuthoringSession): void }) {
  const devices = useAsync(() => (opened ? cloudDevices() : Promise.resolve([])), [opened]);
  const [goal, setGoal] = useState('');
  const [deviceId, setDeviceId] = useState<string | null>(null);
  const start = useAction(startSession);
  const submit = async () => {
    const answer = await start.run({ goal: goal.trim(), ...(deviceId ? { device_id: Number(deviceId) } : {}) });
    if (answer.ok) onStarted(answer.value);
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Start an authoring session" size="lg">
      <Stack>
        <Textarea label="Goal" description="What the macro should do, in plain words (up to 4,000 characters)." placeholder="Open the shop, add the espresso beans to the cart and check out." autosize minRows={3} maxLength={4000} value={goal} onChange={(e) => setGoal(e.currentTarget.value)} data-autofocus />
        <Select label="Cloud device" description="The agent holds it while it works; its runs are real cloud runs." placeholder="No device" clearable data={(devices.data ?? []).map((d) => ({ value: String(d.id), label: d.name }))} value={deviceId} onChange={setDeviceId} />
        <Text size="sm" c="dimmed">A new code macro named after the goal receives the code. Each model call spends AI credits (one per 1,000 tokens).</Text>
        {start.error !== undefined && <ErrorAlert error={start.error} title="The session did not start" />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>Cancel</Button>
          <Button onClick={() => void submit()} loading={start.pending} disabled={goal.trim() === ''}>Start session</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
