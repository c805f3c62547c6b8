// A run's log, read with the cursor route: the newest window first, then only what came
// after `last_seq`, every two seconds while the run is running (the live tail).
import { Badge, Button, Group, Stack, Switch, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { ErrorAlert } from '../../components/ErrorAlert';
import { runLog } from './runs-api';

const POLL_MS = 2000;
const MAX_KEPT = 5000;

export function RunLog({ executionId, running, onTick }: { executionId: string; running: boolean; onTick: () => void }) {
  const [lines, setLines] = useState<string[] | null>(null);
  const [error, setError] = useState<unknown>();
  const [follow, setFollow] = useState(true);
  const cursor = useRef(0);
  const view = useRef<HTMLPreElement>(null);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    cursor.current = 0;
    setLines(null);
    const read = async () => {
      try {
        const log = await runLog(executionId, { max_lines: 1000, ...(cursor.current ? { since_seq: cursor.current } : {}) });
        if (stopped) return;
        cursor.current = log.last_seq;
        setLines((old) => [...(old ?? []), ...log.lines].slice(-MAX_KEPT));
        setError(undefined);
      } catch (reason) {
        if (!stopped) setError(reason);
      }
      if (!stopped && running && follow) {
        timer = setTimeout(() => {
          onTick();
          void read();
        }, POLL_MS);
      }
    };
    void read();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [executionId, running, follow]); // onTick is a reload whose identity is stable

  useEffect(() => {
    if (follow && view.current) view.current.scrollTop = view.current.scrollHeight;
  }, [lines, follow]);

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Group gap="sm">
          <Text fw={600}>Log</Text>
          {running && follow && <Badge color="blue" variant="light">Live</Badge>}
        </Group>
        <Group gap="md">
          {running && <Switch label="Follow new lines" checked={follow} onChange={(e) => setFollow(e.currentTarget.checked)} />}
          {!running && <Button size="xs" variant="default" onClick={() => { setFollow(false); setFollow(true); }}>Reload</Button>}
        </Group>
      </Group>
      <ErrorAlert error={error} title="Could not read the log" />
      {lines === null ? (
        <Text size="sm" c="dimmed" role="status">Reading the log…</Text>
      ) : lines.length === 0 ? (
        <Text size="sm" c="dimmed">No log lines. Logs are shipped from cloud runs; a run on your machine keeps its output in the application.</Text>
      ) : (
        <pre className="log-view" ref={view} tabIndex={0} aria-label={`Log of run ${executionId}`} aria-live={running ? 'polite' : undefined}>
          {lines.join('\n')}
        </pre>
      )}
    </Stack>
  );
}
