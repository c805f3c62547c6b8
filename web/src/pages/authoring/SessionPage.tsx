// One authoring session, followed while it works: the conversation, the question waiting for
// your answer, a stop, and when it is done its files and installing them into a macro.
import { Alert, Anchor, Box, Button, Card, DataList, Stack, Text, Textarea, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link } from '../../app/router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { Time } from '../../components/Time';
import { useAction, useAsync } from '../../lib/use-async';
import { getMacro } from '../macros/macros-api';
import { answerSession, type AuthoringMessage, type AuthoringSession, cloudDevices, isLive, isUnavailable, stopSession } from './authoring-api';
import { Conversation } from './Conversation';
import { InstallCard } from './InstallCard';
import { NotConfigured } from './NotConfigured';
import { SessionState } from './SessionState';
import { useFollow } from './use-follow';

/**
 * The conversation without the agent's last words when they are the question waiting for an
 * answer: the question is shown once, in the answer box below.
 */
export function withoutOpenQuestion(messages: AuthoringMessage[], session: AuthoringSession): AuthoringMessage[] {
  if (session.state !== 'waiting_for_answer' || !session.question) return messages;
  const last = messages.findLastIndex((m) => m.role !== 'tool');
  if (last === -1 || messages[last].role === 'user' || messages[last].text.trim() !== session.question.trim()) return messages;
  return messages.filter((_, i) => i !== last);
}

export function SessionPage({ params }: { params: Record<string, string> }) {
  const id = Number(params.id);
  const followed = useFollow(id);
  const stop = useAction(stopSession);
  const { session } = followed;
  if (!session) {
    if (isUnavailable(followed.error)) return <NotConfigured error={followed.error} />;
    return followed.error ? <ErrorAlert error={followed.error} title="Could not load the session" /> : <Loading />;
  }
  const stopButton = isLive(session) && (
    <Button color="red" variant="light" loading={stop.pending} onClick={() => void stop.run(session.id).then((r) => r.ok && followed.update(r.value))}>
      Stop session
    </Button>
  );
  return (
    <>
      <PageHeader eyebrow={<Anchor component={Link} to="/authoring" size="sm">Authoring agent</Anchor>} title={session.goal.split('\n')[0]} actions={stopButton} />
      <ErrorAlert error={stop.error} title="The session did not stop" />
      <Box style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 2fr) minmax(0, 1fr)', gap: 'var(--mantine-spacing-lg)', alignItems: 'start' }}>
        <div>
          <Card>
            <Title order={2} fz="md" mb="md">Conversation</Title>
            <Conversation messages={withoutOpenQuestion(followed.messages, session)} thumbnails={followed.thumbnails} />
            {session.state === 'waiting_for_answer' && session.question && <AnswerForm session={session} onAnswered={followed.update} />}
          </Card>
        </div>
        <div>
          <Stack gap="lg">
            <Details session={session} />
            {session.state === 'done' && session.files && <InstallCard session={session} files={session.files} />}
          </Stack>
        </div>
      </Box>
    </>
  );
}

function Details({ session }: { session: AuthoringSession }) {
  // Names, not ids: ids count across every account, so "macro #1" says nothing to a person.
  const macro = useAsync(() => (session.macro_id === null ? Promise.resolve(null) : getMacro(session.macro_id)), [session.macro_id]);
  const devices = useAsync(cloudDevices, []);
  const device = session.device_id === null ? 'none' : (devices.data?.find((d) => d.id === session.device_id)?.name ?? (devices.data ? 'a deleted device' : '…'));
  const macroName = macro.data?.name ?? (macro.error ? 'a deleted macro' : '…');
  return (
    <Card>
      <DataList labelWidth={110}>
        <DataList.Item><DataList.ItemLabel>State</DataList.ItemLabel><DataList.ItemValue><SessionState session={session} /></DataList.ItemValue></DataList.Item>
        {session.state_message && <DataList.Item><DataList.ItemLabel>Why</DataList.ItemLabel><DataList.ItemValue><Text size="sm">{session.state_message}</Text></DataList.ItemValue></DataList.Item>}
        <DataList.Item><DataList.ItemLabel>Device</DataList.ItemLabel><DataList.ItemValue>{device}</DataList.ItemValue></DataList.Item>
        <DataList.Item><DataList.ItemLabel>Macro</DataList.ItemLabel><DataList.ItemValue>{session.macro_id === null ? 'deleted' : <Anchor component={Link} to={`/macros/${session.macro_id}`} size="sm">{macroName}</Anchor>}</DataList.ItemValue></DataList.Item>
        <DataList.Item><DataList.ItemLabel>Credits spent</DataList.ItemLabel><DataList.ItemValue>{String(session.credits_used)}</DataList.ItemValue></DataList.Item>
        <DataList.Item><DataList.ItemLabel>Started</DataList.ItemLabel><DataList.ItemValue><Time value={session.created_at} /></DataList.ItemValue></DataList.Item>
      </DataList>
      <Text size="sm" mt="sm" style={{ whiteSpace: 'pre-wrap' }}>{session.goal}</Text>
    </Card>
  );
}

function AnswerForm({ session, onAnswered }: { session: AuthoringSession; onAnswered(s: AuthoringSession): void }) {
  const [answer, setAnswer] = useState('');
  const send = useAction(answerSession);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await send.run(session.id, answer.trim());
    if (result.ok) {
      setAnswer('');
      onAnswered(result.value);
    }
  };
  return (
    <section aria-label="The agent's question">
    <Alert color="yellow" variant="light" title="The agent asks" mt="lg">
      <Text size="sm" mb="sm" style={{ whiteSpace: 'pre-wrap' }}>{session.question}</Text>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="sm">
          <ErrorAlert error={send.error} title="The answer was not sent" />
          <Textarea label="Your answer" autosize minRows={2} maxLength={4000} value={answer} onChange={(e) => setAnswer(e.currentTarget.value)} />
          <Button type="submit" loading={send.pending} disabled={answer.trim() === ''} style={{ alignSelf: 'flex-start' }}>Send answer</Button>
        </Stack>
      </form>
    </Alert>
    </section>
  );
}
