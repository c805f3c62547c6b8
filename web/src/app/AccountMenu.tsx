// The signed-in person, with the way to their plan and to sign out.
import { Avatar, Menu, UnstyledButton, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { useSession, useUser } from '../state/session';
import { navigate } from './router';

export function AccountMenu() {
  const user = useUser();
  const { signOut } = useSession();
  const [signingOut, setSigningOut] = useState(false);
  const initials = (user.name ?? user.email).slice(0, 2).toUpperCase();
  const leave = async () => {
    setSigningOut(true);
    try {
      await signOut();
      navigate('/signin', { replace: true });
    } finally {
      setSigningOut(false);
    }
  };
  return (
    <Menu position="bottom-end" width={240} shadow="md">
      <Menu.Target>
        <UnstyledButton px={6} py={4} style={{ borderRadius: 8 }}>
          <Group gap={8} wrap="nowrap">
            <Avatar color="indigo" radius="xl" size={32} aria-hidden>{initials}</Avatar>
            <Text size="sm" fw={500} maw={180} truncate="end">{user.name ?? user.email}<span className="visually-hidden">, account menu</span></Text>
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Signed in as {user.email}</Menu.Label>
        <Menu.Item onClick={() => navigate('/account')}>Plan and account</Menu.Item>
        <Menu.Item onClick={() => navigate('/keys')}>API keys</Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" disabled={signingOut} onClick={() => void leave()}>Sign out</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
