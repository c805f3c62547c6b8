// Pages whose data comes from key routes (the contract lets only API keys read devices,
// run history, webhooks, profiles and proxies) show this until the tab has a console key
// that covers the route. See docs/console.md, "How the console authenticates".
import { Anchor, Button, Card, Code, Group, PasswordInput, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link } from '../app/router';
import { useAction } from '../lib/use-async';
import { type KeyNeed, useConsoleKey } from '../state/console-key';
import { ErrorAlert } from './ErrorAlert';
import { LockIcon } from './icons';
import { TEXT } from '../theme';

const describeNeed = (need: KeyNeed) => (need === 'full' ? 'a full-access key (one created with no scopes)' : `a key with the ${need} scope, or a full-access key`);

export function KeyGate({ need, routes, children }: { need: KeyNeed; routes: string[]; children: ReactNode }) {
  const consoleKey = useConsoleKey();
  if (consoleKey.covers(need)) return <>{children}</>;
  return <KeyChooser need={need} routes={routes} />;
}

export function KeyChooser({ need, routes }: { need: KeyNeed; routes: string[] }) {
  const consoleKey = useConsoleKey();
  const create = useAction(consoleKey.createForTab);
  const adopt = useAction(consoleKey.adopt);
  const [pasted, setPasted] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void adopt.run(pasted).then((outcome) => outcome.ok && setPasted(''));
  };
  const current = consoleKey.current;
  return (
    <Card withBorder radius="md" p="xl" maw={760}>
      <Group align="flex-start" wrap="nowrap" gap="lg">
        <ThemeIcon size={44} radius="md" variant="light" color="indigo">
          <LockIcon size={22} />
        </ThemeIcon>
        <Stack gap="sm" style={{ flex: 1 }}>
          <Title order={2} fz="lg">This page needs an API key in this tab</Title>
          <Text size="sm">
            The service serves this data only on key routes ({routes.map((r, i) => (
              <span key={r}>{i > 0 && ', '}<Code>{r}</Code></span>
            ))}), which need {describeNeed(need)}. Your sign-in session cannot call them.
          </Text>
          {consoleKey.rejected && !current && (
            <Text size="sm" c={TEXT.warning} role="status">The key this tab used stopped working: {consoleKey.rejected}</Text>
          )}
          {current && (
            <Text size="sm" c={TEXT.warning}>
              The key this tab uses ({current.whoami.api_key.prefix}…, scopes: {current.whoami.api_key.scopes.join(', ')}) does not cover it.
            </Text>
          )}
          <Text size="sm" c="dimmed">
            The console keeps the key in this tab's memory only: it is never written to storage and is forgotten when you close or reload the tab.
            A key the console creates is named “Console tab …”, expires in 30 days and is revoked when you sign out.
          </Text>
          <ErrorAlert error={create.error ?? adopt.error} />
          <Group>
            <Button loading={create.pending} onClick={() => void create.run()}>Create a key for this tab</Button>
            <Anchor component={Link} to="/keys" size="sm">Manage API keys</Anchor>
          </Group>
          <form onSubmit={submit}>
            <Group align="flex-end" gap="sm">
              <PasswordInput
                label="Or use a key you already have"
                description="Paste the whole key (svc_…); it is checked with GET /api/whoami."
                value={pasted}
                onChange={(event) => setPasted(event.currentTarget.value)}
                style={{ flex: 1 }}
                autoComplete="off"
              />
              <Button type="submit" variant="default" loading={adopt.pending} disabled={pasted.trim() === ''}>Use this key</Button>
            </Group>
          </form>
        </Stack>
      </Group>
    </Card>
  );
}
