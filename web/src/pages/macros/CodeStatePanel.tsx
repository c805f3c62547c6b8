// A Python macro's code snapshot (read with the session), uploading a zip of the project
// from the browser, and how to push code from the user's machine with `svc code push`.
import { Card, Code, DataList, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { exactTime } from '../../components/Time';
import { formatBytes } from '../../lib/format';
import { useAsync } from '../../lib/use-async';
import { UploadCodeCard } from './UploadCodeCard';
import { codeSummary } from './macros-api';

export function CodeStatePanel({ macroId }: { macroId: number }) {
  const [version, setVersion] = useState(0);
  return (
    <Stack gap="lg">
      <CodeState macroId={macroId} version={version} />
      <UploadCodeCard macroId={macroId} onUploaded={() => setVersion((v) => v + 1)} />
      <PushHowTo macroId={macroId} />
    </Stack>
  );
}

function CodeState({ macroId, version }: { macroId: number; version: number }) {
  const summary = useAsync(() => codeSummary(macroId), [macroId, version]);
  if (summary.loading && !summary.data) return <Loading label="Reading the code snapshot…" />;
  if (summary.error) return <ErrorAlert error={summary.error} title="Could not read the code state" />;
  if (summary.data && !summary.data.synced) {
    return (
      <Card>
        <Title order={2} fz="md" mb={4}>No code yet</Title>
        <Text size="sm" c="dimmed">This macro has never been synced. Upload a zip of the project, or push it from your machine, as shown below.</Text>
      </Card>
    );
  }
  const s = summary.data?.state;
  if (!s) return null;
  return (
    <Card>
      <Title order={2} fz="md" mb="sm">Current code snapshot</Title>
      <DataList labelWidth={140}>
        <DataList.Item><DataList.ItemLabel>Entry file</DataList.ItemLabel><DataList.ItemValue><Code>{s.entry_path}</Code></DataList.ItemValue></DataList.Item>
        <DataList.Item><DataList.ItemLabel>Files</DataList.ItemLabel><DataList.ItemValue>{s.file_count}</DataList.ItemValue></DataList.Item>
        <DataList.Item><DataList.ItemLabel>Size</DataList.ItemLabel><DataList.ItemValue>{formatBytes(s.size_bytes)}</DataList.ItemValue></DataList.Item>
        <DataList.Item><DataList.ItemLabel>Uploaded</DataList.ItemLabel><DataList.ItemValue>{exactTime(s.created_at)}</DataList.ItemValue></DataList.Item>
        <DataList.Item><DataList.ItemLabel>Worktree hash</DataList.ItemLabel><DataList.ItemValue><Text className="mono" style={{ wordBreak: 'break-all' }}>{s.worktree_hash}</Text></DataList.ItemValue></DataList.Item>
      </DataList>
    </Card>
  );
}

function PushHowTo({ macroId }: { macroId: number }) {
  return (
    <Card>
      <Title order={2} fz="md" mb={4}>Or push code from your machine</Title>
      <Text size="sm" c="dimmed" mb="sm">
        The service takes code as a snapshot of a folder. From the project folder, with a key that has the macros:run scope:
      </Text>
      <Code block>{`export SVC_API_KEY=svc_…   # a key with macros:run\nexport SVC_BASE_URL=${window.location.origin}\nnpx svc code push ./my-macro --macro ${macroId}`}</Code>
      <Text size="sm" c="dimmed" mt="sm">
        The entry file is src/app.py, else any main.py, else the first .py file (choose one with --entry). Pushing the same tree again changes nothing.
      </Text>
    </Card>
  );
}
