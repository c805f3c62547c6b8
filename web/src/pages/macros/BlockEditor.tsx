// The block program editor: JSON checked as you type, saved with PUT /api/macros/{id}, and
// the service's own validation answer (a 422 with the field at fault) shown beside it.
import { Button, Card, Group, JsonInput, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { Macro } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAction } from '../../lib/use-async';
import { formatProgram, parseProgram } from './program';
import { TEXT } from '../../theme';

export function BlockEditor({ macro, onSaved }: { macro: Macro; onSaved: () => void }) {
  const original = formatProgram(macro.blocks);
  const [text, setText] = useState(original);
  const [saved, setSaved] = useState(false);
  const parsed = parseProgram(text);
  const save = useAction(async () => {
    if (!parsed.ok) return;
    await unwrap(api.PUT('/api/macros/{id}', { params: { path: { id: macro.id } }, body: { blocks: parsed.value } }));
    setText(formatProgram(parsed.value));
    setSaved(true);
    onSaved();
  });
  const changed = text !== original;
  return (
    <Card>
      <Stack>
        <div>
          <Text fw={600}>Block program</Text>
          <Text size="sm" c="dimmed">The program as JSON. Syntax is checked as you type; the service checks the program when you save and its answer appears here.</Text>
        </div>
        <ErrorAlert error={save.error} title="The service refused the program" />
        <JsonInput
          label="Program"
          aria-describedby="program-status"
          autosize
          minRows={12}
          maxRows={30}
          value={text}
          onChange={(value) => {
            setText(value);
            setSaved(false);
          }}
          error={parsed.ok ? undefined : parsed.error}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
        />
        <Group justify="space-between">
          <Text id="program-status" size="sm" c={parsed.ok ? TEXT.success : TEXT.danger} role="status">
            {parsed.ok ? (saved && !changed ? 'Saved.' : 'Valid JSON.') : 'Fix the JSON before saving.'}
          </Text>
          <Group gap="sm">
            <Button variant="default" disabled={!changed} onClick={() => setText(original)}>Discard changes</Button>
            <Button variant="default" disabled={!parsed.ok} onClick={() => parsed.ok && setText(formatProgram(parsed.value))}>Format</Button>
            <Button loading={save.pending} disabled={!parsed.ok || !changed} onClick={() => void save.run()}>Save program</Button>
          </Group>
        </Group>
      </Stack>
    </Card>
  );
}
