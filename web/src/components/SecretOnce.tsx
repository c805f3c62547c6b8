// A secret the API returns only once (a new API key, a webhook signing secret): shown in
// full with a copy button and a plain warning that it will not be shown again.
import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { CheckIcon, CopyIcon } from './icons';

export function SecretOnce({ label, secret, note }: { label: string; secret: string; note?: string }) {
  return (
    <Stack gap="sm">
      <Alert color="yellow" variant="light" title="Copy it now">
        <Text size="sm">
          {note ?? 'This is the only time the whole value is shown. Store it somewhere safe; the service keeps only a hash.'}
        </Text>
      </Alert>
      <Text size="sm" fw={600} id="secret-once-label">{label}</Text>
      <Group gap="xs" wrap="nowrap" align="stretch">
        <Code block aria-labelledby="secret-once-label" data-testid="secret-value" style={{ flex: 1, wordBreak: 'break-all', fontSize: 13 }}>
          {secret}
        </Code>
        <CopyButton value={secret}>
          {({ copied, copy }) => (
            <Button onClick={copy} variant={copied ? 'light' : 'filled'} color={copied ? 'green' : 'indigo'} leftSection={copied ? <CheckIcon size={16} /> : <CopyIcon size={16} />} miw={100}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}
