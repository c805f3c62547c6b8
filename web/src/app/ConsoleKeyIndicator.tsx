// Shows in the header whether this tab holds a console key, and lets the user drop it.
import { Badge, Button, Group, Popover, Stack, Text } from '@mantine/core';
import { KeyIcon } from '../components/icons';
import { useConsoleKey } from '../state/console-key';

export function ConsoleKeyIndicator() {
  const { current, forget } = useConsoleKey();
  if (!current) {
    return (
      <Badge variant="outline" color="gray" radius="sm" size="lg" tt="none" fw={500}>
        No key in this tab
      </Badge>
    );
  }
  const scopes = current.whoami.api_key.scopes;
  return (
    <Popover position="bottom-end" width={320} shadow="md">
      <Popover.Target>
        <Button variant="light" color="green" size="xs" leftSection={<KeyIcon size={14} />}>
          Key {current.whoami.api_key.prefix}…
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          <Text size="sm" fw={600}>Console key for this tab</Text>
          <Text size="sm">
            “{current.whoami.api_key.name}”, {scopes.length === 0 ? 'full access' : `scopes ${scopes.join(', ')}`}.
          </Text>
          <Text size="xs" c="dimmed">
            Held in this tab's memory only. {current.createdHere ? 'The console created it and revokes it when you sign out.' : 'You pasted it; signing out does not revoke it.'}
          </Text>
          <Group justify="flex-end">
            <Button size="xs" variant="default" onClick={forget}>Forget it in this tab</Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
