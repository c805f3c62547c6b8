// Uploading a Python macro's project as a zip from the browser (POST
// /api/macros/{id}/code-snapshot). The zip is read here only to compute the worktree hash
// the route asks for; the service checks the zip and answers in its own words.
import { Alert, Button, Card, FileInput, Group, List, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import type { CodeUpload } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { filesSummary, formatBytes } from '../../lib/format';
import { useAction } from '../../lib/use-async';
import { readZipTree, toBase64, ZipReadError } from '../../lib/zip-tree';
import { uploadCode } from './macros-api';

/** The route's body limit is 16 MiB of base64, the zip at most 10 MiB. */
const MAX_ZIP_BYTES = 10 * 1024 * 1024;

export function UploadCodeCard({ macroId, onUploaded }: { macroId: number; onUploaded: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [entryPath, setEntryPath] = useState('');
  const [result, setResult] = useState<CodeUpload | null>(null);
  const upload = useAction(async (zipFile: File) => {
    if (zipFile.size > MAX_ZIP_BYTES) throw new ZipReadError(`This zip is ${formatBytes(zipFile.size)}; the service takes zips up to 10 MiB.`);
    const bytes = new Uint8Array(await zipFile.arrayBuffer());
    const tree = await readZipTree(bytes);
    const body = { zip_file_base64: toBase64(bytes), worktree_hash: tree.worktreeHash, ...(entryPath.trim() ? { entry_path: entryPath.trim() } : {}) };
    const answer = await uploadCode(macroId, body);
    setResult(answer);
    setFile(null);
    onUploaded();
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    if (file) void upload.run(file);
  };
  return (
    <Card>
      <Title order={2} fz="md" mb={4}>Upload code</Title>
      <Text size="sm" c="dimmed" mb="sm">
        Zip the project folder and upload it here; it becomes the macro's current code. Uploading the same tree again changes nothing.
      </Text>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <ErrorAlert error={upload.error} title="The code was not uploaded" />
          <Group align="flex-end" gap="sm" wrap="wrap">
            <FileInput label="Project zip" placeholder="Choose a .zip file" accept=".zip,application/zip" clearable value={file} onChange={setFile} w={280}
              // Shown as text (not ::placeholder), so it needs body-text contrast.
              styles={{ placeholder: { color: 'var(--mantine-color-gray-7)' } }} />
            <TextInput label="Entry file (optional)" description="Default: src/app.py, else main.py" placeholder="src/app.py" value={entryPath} onChange={(e) => setEntryPath(e.currentTarget.value)} w={240} maxLength={1024} />
            <Button type="submit" loading={upload.pending} disabled={!file}>Upload code</Button>
          </Group>
          {result && <UploadResult result={result} />}
        </Stack>
      </form>
    </Card>
  );
}

function UploadResult({ result }: { result: CodeUpload }) {
  return (
    <Alert color="green" variant="light" role="status" title={result.created ? 'Uploaded: this is now the current code' : 'Unchanged: the macro already had this code, which is current again'}>
      <Text size="sm">{filesSummary(result.file_count, result.size_bytes)}; entry file <code>{result.entry_path}</code>.</Text>
      {result.warnings.length > 0 && (
        <List size="sm" mt="xs">
          {result.warnings.map((w) => <List.Item key={`${w.code}${w.path ?? ''}${w.line ?? ''}`}>{w.message}</List.Item>)}
        </List>
      )}
    </Alert>
  );
}
