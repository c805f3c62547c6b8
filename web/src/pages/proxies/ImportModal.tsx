// Importing many proxies, one a line; the answer says which lines were refused and why.
import { Alert, Button, Group, Modal, Stack, Table, Text, Textarea } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import type { ImportResult } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAction } from '../../lib/use-async';
import { TEXT } from '../../theme';
import { importProxies } from './proxies-api';

export function ImportModal({ opened, onClose, onImported }: { opened: boolean; onClose: () => void; onImported: () => void }) {
  const [text, setText] = useState('');
  const [result, setResult] = useState<ImportResult | null>(null);
  const run = useAction(async () => {
    setResult(await importProxies(text));
    onImported();
  });
  useEffect(() => {
    if (!opened) return;
    setText('');
    setResult(null);
    run.reset();
  }, [opened]); // the action's identity is stable
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run.run();
  };
  const lines = text.split('\n').filter((l) => l.trim()).length;
  return (
    <Modal opened={opened} onClose={onClose} size="xl" title={<Text fw={650}>Import proxies</Text>}>
      {result ? (
        <Stack>
          <Alert color={result.error_count ? 'yellow' : 'green'} variant="light" role="status" title={`${result.created_count} added, ${result.error_count} refused`}>
            {result.error_count ? 'Fix the refused lines and import them again; the others are saved.' : 'Every line was added.'}
          </Alert>
          {result.errors.length > 0 && (
            <Table.ScrollContainer minWidth={600} mah={320}>
              <Table>
                <Table.Thead><Table.Tr><Table.Th>Line</Table.Th><Table.Th>Text</Table.Th><Table.Th>Why</Table.Th></Table.Tr></Table.Thead>
                <Table.Tbody>
                  {result.errors.map((e) => (
                    <Table.Tr key={e.line}>
                      <Table.Td>{e.line}</Table.Td>
                      <Table.Td><Text size="sm" className="mono">{e.raw}</Text></Table.Td>
                      <Table.Td><Text size="sm" c={TEXT.danger}>{e.reason}</Text></Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          <Group justify="flex-end"><Button onClick={onClose}>Done</Button></Group>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <ErrorAlert error={run.error} title="Nothing was imported" />
            <Textarea
              label="Proxies, one a line"
              description="host:port, host:port:user:pass or scheme://user:pass@host:port"
              autosize
              minRows={8}
              maxRows={18}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
              data-autofocus
            />
            <Group justify="space-between">
              <Text size="sm" c="dimmed">{lines} line{lines === 1 ? '' : 's'}</Text>
              <Group>
                <Button variant="default" onClick={onClose}>Cancel</Button>
                <Button type="submit" loading={run.pending} disabled={lines === 0}>Import</Button>
              </Group>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
