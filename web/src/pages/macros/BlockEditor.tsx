// The block program editor: JSON checked as you type against the schema the service
// publishes, saved with PUT /api/macros/{id}, and the service's own validation answer (a 422
// with the field at fault) shown beside it.
import { Anchor, Button, Card, Group, JsonInput, List, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { Macro } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAction } from '../../lib/use-async';
import { formatProgram, parseProgram } from './program';
import { useProgramCheck } from './use-program-check';
import { TEXT } from '../../theme';
import { updateMacro } from './macros-api';

export function BlockEditor({ macro, onSaved }: { macro: Macro; onSaved: () => void }) {
  const original = formatProgram(macro.blocks);
  const [text, setText] = useState(original);
  const [saved, setSaved] = useState(false);
  const parsed = parseProgram(text);
  const check = useProgramCheck(parsed);
  const valid = parsed.ok && check.errors.length === 0;
  const save = useAction(async () => {
    if (!parsed.ok || check.errors.length > 0) return;
    await updateMacro(macro.id, { blocks: parsed.value });
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
          <Text size="sm" c="dimmed">
            The program as JSON: {'{"version": 1, "steps": [...]}'}, each step an object with a type. It is checked as you type against
            the <Anchor href="/schemas/block-program.json" target="_blank" size="sm" underline="always">published schema</Anchor>; the service checks it again when you save.
            Steps find elements by what they are and wait for them ({'{"type": "tap", "selector": {"text": "Sign in"}}'}, wait_for, wait_gone, scroll_to,
            if_exists, long_press), and {'"interrupts": [{"when": {"text": "Not now"}, "do": {"type": "tap"}}]'} beside the steps clears a dialog whenever it comes.
          </Text>
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
        {parsed.ok && check.errors.length > 0 && (
          <List size="sm" c={TEXT.danger} aria-label="Problems with the program">
            {check.errors.slice(0, 8).map((e) => <List.Item key={e.path + e.message}><code>{e.path}</code> {e.message}</List.Item>)}
          </List>
        )}
        <Group justify="space-between">
          <Text id="program-status" size="sm" c={valid ? TEXT.success : TEXT.danger} role="status">
            {!parsed.ok ? 'Fix the JSON before saving.' : check.errors.length > 0 ? `Fix ${check.errors.length === 1 ? 'the problem' : `the ${check.errors.length} problems`} before saving.` : saved && !changed ? 'Saved.' : check.unavailable ? 'Valid JSON (the schema could not be read; the service checks it on save).' : 'Valid program.'}
          </Text>
          <Group gap="sm">
            <Button variant="default" disabled={!changed} onClick={() => setText(original)}>Discard changes</Button>
            <Button variant="default" disabled={!parsed.ok} onClick={() => parsed.ok && setText(formatProgram(parsed.value))}>Format</Button>
            <Button loading={save.pending} disabled={!valid || !changed} onClick={() => void save.run()}>Save program</Button>
          </Group>
        </Group>
      </Stack>
    </Card>
  );
}
