// Sending a custom event (POST /api/webhooks/events, a session route): what a script would
// emit through the application, delivered to every endpoint that takes `custom.*`.
import { Alert, Button, Card, Group, JsonInput, NumberInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { ErrorAlert } from '../../components/ErrorAlert';
import { plural } from '../../lib/format';
import { useAction } from '../../lib/use-async';
import { sendCustomEvent } from './webhooks-api';

export function CustomEventCard() {
  const [type, setType] = useState('custom.order_shipped');
  const [data, setData] = useState('{\n  "order": 1042\n}');
  const [deviceId, setDeviceId] = useState<string | number>('');
  const [executionId, setExecutionId] = useState('');
  const [result, setResult] = useState<{ event_id: string; deliveries: number } | null>(null);
  let parsed: { ok: true; value: Record<string, unknown> } | { ok: false; error: string };
  try {
    const value: unknown = JSON.parse(data);
    parsed = typeof value === 'object' && value !== null && !Array.isArray(value) ? { ok: true, value: value as Record<string, unknown> } : { ok: false, error: 'The data is a JSON object.' };
  } catch (error) {
    parsed = { ok: false, error: `Not valid JSON: ${error instanceof Error ? error.message : ''}` };
  }
  const send = useAction(async () => {
    if (!parsed.ok) return;
    setResult(null);
    setResult(await sendCustomEvent({ type, data: parsed.value, ...(deviceId !== '' ? { device_id: Number(deviceId) } : {}), ...(executionId ? { execution_id: executionId } : {}) }));
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void send.run();
  };
  return (
    <Card maw={760}>
      <Title order={2} fz="md">Send a custom event</Title>
      <Text size="sm" c="dimmed" mb="md">The same as a script emitting an event through the application: every endpoint that takes its type (for example custom.*) gets a delivery.</Text>
      <form onSubmit={submit} noValidate>
        <Stack>
          <ErrorAlert error={send.error} title="The event was not sent" />
          {result && (
            <Alert color="green" variant="light" role="status">
              Event {result.event_id} queued {plural(result.deliveries, 'delivery', 'deliveries')}.
            </Alert>
          )}
          <TextInput label="Type" description="custom. followed by 1 to 64 of a-z 0-9 . _ -" required value={type} onChange={(e) => setType(e.currentTarget.value)} />
          <JsonInput label="Data" description="A JSON object, at most 64 KB" autosize minRows={4} value={data} onChange={setData} error={parsed.ok ? undefined : parsed.error} />
          <SimpleGrid cols={2}>
            <NumberInput label="Device id" description="Optional: scopes the event to a device" min={1} allowDecimal={false} value={deviceId} onChange={setDeviceId} />
            <TextInput label="Execution id" description="Optional: the run it belongs to" value={executionId} onChange={(e) => setExecutionId(e.currentTarget.value)} />
          </SimpleGrid>
          <Group justify="flex-end"><Button type="submit" loading={send.pending} disabled={!parsed.ok}>Send event</Button></Group>
        </Stack>
      </form>
    </Card>
  );
}
