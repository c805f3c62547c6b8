// The frame of the signed-out pages: the product mark above one centred card.
import { Box, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useEffect } from 'react';
import { LogoMark } from '../../components/icons';

export function AuthLayout({ title, subtitle, children, footer }: { title: string; subtitle: string; children: ReactNode; footer: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Automation service`;
  }, [title]);
  return (
    <Box component="main" mih="100vh" bg="gray.0" py={72}>
      <Center>
        <Stack w={420} gap="lg">
          <Group gap="sm" justify="center">
            <LogoMark size={36} />
            <Text fw={700} size="lg">Automation service</Text>
          </Group>
          <Paper withBorder shadow="sm" radius="lg" p={32}>
            <Title order={1} fz={22} mb={4}>{title}</Title>
            <Text c="dimmed" size="sm" mb="lg">{subtitle}</Text>
            {children}
          </Paper>
          <Text size="sm" ta="center">{footer}</Text>
        </Stack>
      </Center>
    </Box>
  );
}
