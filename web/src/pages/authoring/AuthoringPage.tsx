// The authoring agent: the month's AI credits, the person's sessions (goal, state, credits
// spent), and starting one from a goal and a cloud device. Without a model endpoint the page
// says the agent is not configured and how to configure it, and offers no start.
import { Anchor, Button, SimpleGrid, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, navigate, useLocation } from '../../app/router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { SparkIcon } from '../../components/icons';
import { PageHeader } from '../../components/PageHeader';
import { pageFrom } from '../../components/Pager';
import { type Column, ResourceTable } from '../../components/ResourceTable';
import { Time } from '../../components/Time';
import { useAsync } from '../../lib/use-async';
import { allMacros } from '../macros/macros-api';
import { type AuthoringSession, isUnavailable, listSessions, readCredits } from './authoring-api';
import { CreditsCard } from './CreditsCard';
import { NotConfigured } from './NotConfigured';
import { SessionState } from './SessionState';
import { StartSessionModal } from './StartSessionModal';

const PAGE_SIZE = 25;

const columns = (macroName: (id: number) => string): Column<AuthoringSession>[] => [
  { header: 'Goal', maxWidth: 420, cell: (s) => <Anchor component={Link} to={`/authoring/${s.id}`}>{s.goal.split('\n')[0]}</Anchor> },
  { header: 'State', cell: (s) => <SessionState session={s} /> },
  { header: 'Credits', cell: (s) => <Text size="sm">{s.credits_used}</Text> },
  { header: 'Macro', cell: (s) => (s.macro_id === null ? <Text size="sm">—</Text> : <Anchor component={Link} to={`/macros/${s.macro_id}`} size="sm">{macroName(s.macro_id)}</Anchor>) },
  { header: 'Started', cell: (s) => <Text size="sm"><Time value={s.created_at} /></Text> },
];

export function AuthoringPage() {
  const page = pageFrom(useLocation().query);
  const sessions = useAsync(() => listSessions({ page, page_size: PAGE_SIZE }), [page]);
  const credits = useAsync(readCredits, []);
  const macros = useAsync(allMacros, []);
  // The macro's name, not its id (ids count across every account); "a deleted macro" once it is gone.
  const macroName = (id: number) => macros.data?.find((m) => m.id === id)?.name ?? (macros.data ? 'a deleted macro' : '…');
  const [open, setOpen] = useState(false);
  const unavailable = isUnavailable(sessions.error);
  const start = (
    <Button leftSection={<SparkIcon size={16} />} onClick={() => setOpen(true)} disabled={unavailable || sessions.loading}>
      New session
    </Button>
  );
  return (
    <>
      <PageHeader
        title="Authoring agent"
        description="Describe what a macro should do. The agent tries it on a cloud device, writes a Python project, runs it, fixes what fails, asks you when unsure, and leaves code that runs."
        actions={start}
      />
      {unavailable && <NotConfigured error={sessions.error} />}
      {/* Credits mean nothing while there is no agent to spend them. */}
      {!unavailable && !sessions.loading && (
        <>
          <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg" mb="lg">
            {credits.data && <CreditsCard credits={credits.data} />}
          </SimpleGrid>
          <ErrorAlert error={credits.error} title="Could not read the AI credits" />
        </>
      )}
      {!unavailable && (
        <ResourceTable
          noun="session"
          list={sessions}
          columns={columns(macroName)}
          rowKey={(s) => s.id}
          minWidth={820}
          errorTitle="Could not load the sessions"
          empty={{ icon: <SparkIcon size={22} />, title: 'No sessions yet', body: 'Start one with a goal in plain words, for example “open the settings and change the language to German”.' }}
        />
      )}
      <StartSessionModal opened={open} onClose={() => setOpen(false)} onStarted={(s) => navigate(`/authoring/${s.id}`)} />
    </>
  );
}
