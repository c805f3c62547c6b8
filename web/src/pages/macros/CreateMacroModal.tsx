// A new macro: Python (its code arrives with `svc code push`) or block (a JSON program).
import { Button, Group, JsonInput, Modal, SegmentedControl, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import { navigate } from '../../app/router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAction } from '../../lib/use-async';
import { parseProgram } from './program';
import { useProgramCheck } from './use-program-check';
import { createMacro } from './macros-api';

/** The empty program in the published form; `[]` is accepted too. */
const EMPTY_PROGRAM = '{"version": 1, "steps": []}';

export function CreateMacroModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [name, setName] = useState('');
  const [kind, setKind] = useState<'python' | 'block'>('python');
  const [description, setDescription] = useState('');
  const [program, setProgram] = useState(EMPTY_PROGRAM);
  const parsed = parseProgram(program);
  const check = useProgramCheck(parsed);
  const programError = !parsed.ok ? parsed.error : check.errors.length > 0 ? `${check.errors[0].path} ${check.errors[0].message}` : undefined;
  const create = useAction(async () => {
    const body = {
      name,
      kind,
      ...(description.trim() ? { description } : {}),
      ...(kind === 'block' && parsed.ok ? { blocks: parsed.value } : {}),
    };
    const macro = await createMacro(body);
    onClose();
    navigate(`/macros/${macro.id}`);
  });

  useEffect(() => {
    if (!opened) return;
    setName('');
    setKind('python');
    setDescription('');
    setProgram(EMPTY_PROGRAM);
    create.reset();
  }, [opened]); // the action's identity is stable

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (kind === 'block' && programError) return;
    void create.run();
  };
  return (
    <Modal opened={opened} onClose={onClose} size="lg" title={<Text fw={650}>New macro</Text>}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <ErrorAlert error={create.error} title="The macro was not created" />
          <TextInput label="Name" required maxLength={100} value={name} onChange={(e) => setName(e.currentTarget.value)} data-autofocus />
          <Stack gap={6}>
            <Text size="sm" fw={500} id="macro-kind-label">Kind</Text>
            <SegmentedControl
              aria-labelledby="macro-kind-label"
              value={kind}
              onChange={(value) => setKind(value === 'block' ? 'block' : 'python')}
              data={[{ value: 'python', label: 'Python code' }, { value: 'block', label: 'Block program' }]}
            />
            <Text size="xs" c="dimmed">
              {kind === 'python' ? 'You write the code on your machine and push it with svc code push.' : 'The program is JSON you edit here.'}
            </Text>
          </Stack>
          <Textarea label="Description" description="Optional, up to 2,000 characters" autosize minRows={2} maxLength={2000} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          {kind === 'block' && (
            <JsonInput label="Block program" description="JSON; you can change it later" autosize minRows={4} maxRows={14} value={program} onChange={setProgram} error={programError} />
          )}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={create.pending} disabled={kind === 'block' && programError !== undefined}>Create macro</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
