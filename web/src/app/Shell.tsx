// The frame around every signed-in page: the header (product, plan, account menu),
// the sectioned navigation, a plan banner when it matters, and the page itself.
import { Anchor, AppShell, Box, Group, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { LogoMark } from '../components/icons';
import { AccountMenu } from './AccountMenu';
import { isActive, NAV } from './nav';
import { PlanBadge } from './PlanBadge';
import { PlanBanner } from './PlanBanner';
import { Link, useLocation } from './router';

export function Shell({ children }: { children: ReactNode }) {
  const { path } = useLocation();
  return (
    <AppShell header={{ height: 60 }} navbar={{ width: 248, breakpoint: 'sm' }} padding={0}>
      <a className="skip-link" href="#main">Skip to the page</a>
      <AppShell.Header px="lg">
        <Group h="100%" justify="space-between">
          <Anchor component={Link} to="/" underline="never" c="inherit">
            <Group gap="sm">
              <LogoMark />
              <Box>
                <Text fw={700} size="md" lh={1.1}>Automation service</Text>
                <Text size="xs" c="dimmed" lh={1.1}>Console</Text>
              </Box>
            </Group>
          </Anchor>
          <Group gap="sm">
            <PlanBadge />
            <AccountMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" aria-label="Main">
        <ScrollArea type="never">
          <Stack gap="lg" py="xs">
            {NAV.map((section) => (
              <Box key={section.title ?? 'home'}>
                {section.title && (
                  <Text size="xs" fw={700} tt="uppercase" c="dimmed" px="sm" mb={6} style={{ letterSpacing: 0.6 }}>
                    {section.title}
                  </Text>
                )}
                <Stack gap={2}>
                  {section.items.map((item) => {
                    const active = isActive(item, path);
                    return (
                      <NavLink
                        key={item.to}
                        component={Link}
                        to={item.to}
                        label={item.label}
                        leftSection={<item.icon size={18} />}
                        active={active}
                        aria-current={active ? 'page' : undefined}
                        variant="light"
                        fw={active ? 600 : 500}
                        style={{ borderRadius: 8 }}
                      />
                    );
                  })}
                </Stack>
              </Box>
            ))}
          </Stack>
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main bg="gray.0">
        <PlanBanner />
        <Box id="main" tabIndex={-1} px={40} py={32} maw={1240} style={{ outline: 'none' }}>
          {children}
        </Box>
      </AppShell.Main>
    </AppShell>
  );
}
