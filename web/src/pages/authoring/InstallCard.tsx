// A finished session's files, and installing them as a code macro's current code: the
// session's own macro (its last run already installed them there) or another of yours.
import { Alert, Anchor, Button, Card, Code, Select, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { CodeUpload } from '../../api/types';
import { Link } from '../../app/router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { filesSummary } from '../../lib/format';
import { useAction, useAsync } from '../../lib/use-async';
import { type AuthoringSession, codeMacros, installFiles, type ProjectFile } from './authoring-api';

export function InstallCard({ session, files }: { session: AuthoringSession; files: ProjectFile[] }) {
  const macros = useAsync(codeMacros, []);
  const [macroId, setMacroId] = useState<string | null>(session.macro_id === null ? null : String(session.macro_id));
  const [done, setDone] = useState<{ macroId: number; upload: CodeUpload }>();
  const install = useAction(installFiles);
  const submit = async () => {
    const target = Number(macroId);
    const result = await install.run(target, files);
    if (result.ok) setDone({ macroId: target, upload: result.value });
  };
  return (
    <Card>
      <Title order={2} fz="md" mb="xs">The result</Title>
      <Stack gap="xs" mb="md">
        {files.map((f) => (
          <details key={f.path}>
            <summary style={{ cursor: 'pointer' }}><Text span size="sm" className="mono">{f.path}</Text></summary>
            <Code block mt={4} style={{ maxHeight: 320, overflow: 'auto' }}>{f.content}</Code>
          </details>
        ))}
      </Stack>
      <Stack gap="sm">
        <Select label="Install into macro" description="The files become this code macro's current code." data={(macros.data ?? []).map((m) => ({ value: String(m.id), label: m.name }))} value={macroId} onChange={setMacroId} />
        <ErrorAlert error={install.error} title="The code was not installed" />
        <Button onClick={() => void submit()} loading={install.pending} disabled={macroId === null || files.length === 0}>Install into macro</Button>
        {done && (
          <Alert color="green" variant="light" role="status" title={done.upload.created ? 'Installed: this is now the macro’s current code' : 'Unchanged: the macro already had this code'}>
            <Text size="sm">{filesSummary(done.upload.file_count, done.upload.size_bytes)}; entry file <code>{done.upload.entry_path}</code>. <Anchor component={Link} to={`/macros/${done.macroId}`} size="sm">Open the macro</Anchor></Text>
          </Alert>
        )}
      </Stack>
    </Card>
  );
}
