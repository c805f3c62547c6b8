// The top of every page: its title, one sentence on what it is for, and its main actions.
import { Box, Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function PageHeader({ title, description, actions, eyebrow }: { title: ReactNode; description?: ReactNode; actions?: ReactNode; eyebrow?: ReactNode }) {
  return (
    <Group justify="space-between" align="flex-end" mb="lg" wrap="nowrap" gap="md">
      <Box>
        {eyebrow && (
          <Text size="sm" c="dimmed" mb={4}>
            {eyebrow}
          </Text>
        )}
        <Title order={1} fz={26} fw={650} lh={1.25}>
          {title}
        </Title>
        {description && (
          <Text c="dimmed" mt={6} maw={720}>
            {description}
          </Text>
        )}
      </Box>
      {actions && <Group gap="sm" wrap="nowrap">{actions}</Group>}
    </Group>
  );
}
