// A refused publication: the API's sentence and every place a secret was found (file and
// line, or the program or Default arguments), never the secret itself.
import { Alert, List, Text } from '@mantine/core';
import { ErrorAlert } from '../../components/ErrorAlert';
import { secretFindingsOf } from './marketplace-api';

const where = (path: string) => (path === 'blocks' ? 'the block program' : path === 'args' ? 'the Default profile’s arguments' : path);

export function PublishError({ error, title }: { error: unknown; title: string }) {
  const findings = secretFindingsOf(error);
  if (findings.length === 0) return <ErrorAlert error={error} title={title} />;
  return (
    <Alert color="red" variant="light" title="Nothing was published: a secret was found" role="alert" mb="md">
      <Text size="sm">Remove each one (keep secrets in a profile other than Default, which is not published), then publish again.</Text>
      <List size="sm" mt="xs" aria-label="Secrets found">
        {findings.map((f, i) => (
          <List.Item key={`${f.path}:${f.line ?? ''}:${i}`}>
            <code>{where(f.path)}</code>
            {f.line !== undefined && <> line {f.line}</>}: {f.label}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
