// The first page after signing in: the plan, counts of what exists, and the next steps.
import type { ReactNode } from 'react';
import { Anchor, Card, Code, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Link } from '../../app/router';
import { CheckIcon, CodeIcon, KeyIcon } from '../../components/icons';
import { PageHeader } from '../../components/PageHeader';
import { useAsync } from '../../lib/use-async';
import { useSession, useUser } from '../../state/session';
import { PlanCard } from '../account/PlanCard';
import { TEXT } from '../../theme';
import { listDevices } from '../devices/devices-api';
import { listKeys } from '../keys/keys-api';
import { listMacros } from '../macros/macros-api';

async function loadCounts() {
  const [keys, macros, devices] = await Promise.all([
    listKeys(),
    listMacros({ page_size: 1 }),
    listDevices({ page_size: 1 }),
  ]);
  return { activeKeys: keys.filter((k) => k.state === 'Active').length, macros: macros.total_rows, devices: devices.total_rows };
}

export function OverviewPage() {
  const user = useUser();
  const { subscription } = useSession();
  const counts = useAsync(loadCounts, []);
  const steps = [
    { done: (counts.data?.activeKeys ?? 0) > 0, title: 'Create an API key', text: 'Scripts, the svc command line and AI clients call the service with a key.', to: '/keys', action: 'Open API keys' },
    { done: (counts.data?.macros ?? 0) > 0, title: 'Create a macro', text: 'A Python macro runs your code; a block macro runs a block program.', to: '/macros', action: 'Open macros' },
    {
      done: (counts.data?.devices ?? 0) > 0,
      title: 'Add a device',
      text: 'Register a device on your machine (its ADB port) or a cloud device.',
      to: '/devices',
      action: 'Open devices',
    },
  ];
  return (
    <>
      <PageHeader title={`Welcome${user.name ? `, ${user.name}` : ''}`} description="Everything your macros need: keys, code, devices, run history and the webhooks that report on them." />
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg" mb="lg">
        {subscription && <PlanCard subscription={subscription} />}
        <Stat icon={<KeyIcon size={20} />} label="Active API keys" value={counts.data?.activeKeys} to="/keys" hint="of 25 allowed" />
        <Stat icon={<CodeIcon size={20} />} label="Macros" value={counts.data?.macros} to="/macros" hint="Python and block" />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Card>
          <Title order={2} fz="md" mb="md">Get started</Title>
          <Stack gap="md">
            {steps.map((step, i) => (
              <Group key={step.title} align="flex-start" wrap="nowrap" gap="md">
                <ThemeIcon radius="xl" size={28} color={step.done ? 'green' : 'gray'} variant={step.done ? 'filled' : 'light'} aria-hidden>
                  {step.done ? <CheckIcon size={16} /> : <Text size="sm" fw={700} c="gray.8">{i + 1}</Text>}
                </ThemeIcon>
                <div>
                  <Text fw={600} size="sm">{step.title}{step.done && <Text span c={TEXT.success} size="sm" fw={500}> · done</Text>}</Text>
                  <Text size="sm" c="dimmed">{step.text}</Text>
                  <Anchor component={Link} to={step.to} size="sm">{step.action}</Anchor>
                </div>
              </Group>
            ))}
          </Stack>
        </Card>
        <Card>
          <Title order={2} fz="md" mb="xs">Push a Python macro's code</Title>
          <Text size="sm" c="dimmed" mb="sm">Code reaches the service from your machine with the command line, using a key with the macros:run scope:</Text>
          <Code block>{`export SVC_API_KEY=svc_…        # a key with macros:run\nexport SVC_BASE_URL=${window.location.origin}\nnpx svc code push ./my-macro --macro 12`}</Code>
          <Text size="sm" c="dimmed" mt="sm">The macro's page then shows the snapshot: its hash, entry file and size.</Text>
        </Card>
      </SimpleGrid>
    </>
  );
}

function Stat({ icon, label, value, to, hint }: { icon: ReactNode; label: string; value: number | undefined; to: string; hint: string }) {
  return (
    <Card component={Link} to={to} style={{ textDecoration: 'none', color: 'inherit' }}>
      <Group justify="space-between" mb="xs">
        <Text fw={600}>{label}</Text>
        <ThemeIcon variant="light" color="indigo" radius="md" size={34}>{icon}</ThemeIcon>
      </Group>
      <Text fz={32} fw={700} lh={1.1}>{value ?? '…'}</Text>
      <Text size="sm" c="dimmed" mt={4}>{hint}</Text>
    </Card>
  );
}
