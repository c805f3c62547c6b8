// A session as a conversation: the agent's words and your answers as bubbles, each run of
// tool calls folded into one line that opens to the calls and their short results, and the
// screen pictures the console took while following shown small beside them.
import { Box, Group, Image, Paper, Stack, Text } from '@mantine/core';
import { Time } from '../../components/Time';
import type { AuthoringMessage } from './authoring-api';

type Item = { kind: 'say'; message: AuthoringMessage } | { kind: 'tools'; messages: AuthoringMessage[] };

/** Consecutive tool messages become one folded item. */
export function groupMessages(messages: AuthoringMessage[]): Item[] {
  const items: Item[] = [];
  for (const message of messages) {
    const last = items.at(-1);
    if (message.role === 'tool' && last?.kind === 'tools') last.messages.push(message);
    else if (message.role === 'tool') items.push({ kind: 'tools', messages: [message] });
    else items.push({ kind: 'say', message });
  }
  return items;
}

const toolName = (m: AuthoringMessage) => m.text.split(':')[0];

export function Conversation({ messages, thumbnails }: { messages: AuthoringMessage[]; thumbnails: Record<number, string> }) {
  if (messages.length === 0) return <Text c="dimmed" size="sm">Nothing yet: the agent is reading the goal.</Text>;
  return (
    <Stack gap="sm" role="log" aria-label="Conversation with the agent" aria-live="polite">
      {groupMessages(messages).map((item) =>
        item.kind === 'say' ? <Bubble key={item.message.seq} message={item.message} /> : <ToolRun key={item.messages[0].seq} messages={item.messages} thumbnails={thumbnails} />,
      )}
    </Stack>
  );
}

function Bubble({ message }: { message: AuthoringMessage }) {
  const mine = message.role === 'user';
  return (
    <Group justify={mine ? 'flex-end' : 'flex-start'}>
      <Paper p="sm" radius="md" maw="80%" bg={mine ? 'indigo.0' : 'gray.0'} withBorder>
        <Text size="xs" c="dimmed" mb={2}>{mine ? 'You' : 'Agent'} · <Time value={message.at} /></Text>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>{message.text}</Text>
      </Paper>
    </Group>
  );
}

function ToolRun({ messages, thumbnails }: { messages: AuthoringMessage[]; thumbnails: Record<number, string> }) {
  const names = [...new Set(messages.map(toolName))];
  const pictures = messages.filter((m) => thumbnails[m.seq] !== undefined);
  return (
    <Box pl="md" style={{ borderLeft: '3px solid var(--mantine-color-gray-3)' }}>
      <details>
        <summary style={{ cursor: 'pointer' }}>
          <Text span size="sm" c="gray.7">
            {messages.length === 1 ? '1 tool call' : `${messages.length} tool calls`}: {names.join(', ')}
          </Text>
        </summary>
        <Stack gap={4} mt={6}>
          {messages.map((m) => (
            <Text key={m.seq} size="xs" className="mono" c="gray.8" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{m.text}</Text>
          ))}
        </Stack>
      </details>
      {pictures.length > 0 && (
        <Group gap="xs" mt={6}>
          {pictures.map((m) => (
            <Image key={m.seq} src={thumbnails[m.seq]} h={160} w="auto" radius="sm" alt={`The device's screen when the console read step ${m.seq} (${m.text.replace('device_screenshot: ', '')})`} style={{ border: '1px solid var(--mantine-color-gray-3)' }} />
          ))}
        </Group>
      )}
    </Box>
  );
}
