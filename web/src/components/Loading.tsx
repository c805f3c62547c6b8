// A visible, announced "loading" for lists and pages.
import { Center, Loader, Text } from '@mantine/core';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <Center py={48} role="status" aria-live="polite">
      <Loader size="sm" mr="sm" color="indigo" />
      <Text size="sm" c="dimmed">{label}</Text>
    </Center>
  );
}
