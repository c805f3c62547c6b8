// A cloud run's trace on its run page (decisions.md §17, issue 32 point 4): the steps as a
// timeline and a filmstrip, the failed step marked in words and selected, the selected step's
// frames before and after with the element it acted on outlined, its error, the log's last
// lines when it is the step the run failed at, a comparison with the macro's last finished
// run, and the self-contained HTML page to download.
import { Alert, Anchor, Badge, Button, Card, Group, ScrollArea, SimpleGrid, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { ApiError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDuration, plural } from '../../lib/format';
import { useAsync } from '../../lib/use-async';
import { TEXT } from '../../theme';
import { firstDifference } from './trace-compare';
import { runLog } from './runs-api';
import { frameUrl, getTrace, lastFinishedTraceOf, traceHtmlUrl } from './trace-api';
import type { Trace, TraceStep } from './trace-types';

const POLL_MS = 2000;

/** What a step was called with, short: `text='Sign in'`, `x=540, y=1630`. */
export function argsSummary(args: Record<string, unknown> | undefined): string {
  if (!args) return '';
  const shown = Object.entries(args).map(([key, value]) => {
    if (typeof value === 'string') return `${key}='${value.length > 40 ? `${value.slice(0, 40)}…` : value}'`;
    if (value !== null && typeof value === 'object') return `${key}={${argsSummary(value as Record<string, unknown>)}}`;
    return `${key}=${String(value)}`;
  });
  return shown.join(', ');
}

function FrameWithElement({ executionId, frame, step, label, screen }: { executionId: string; frame: string | undefined; step: TraceStep; label: string; screen: { width: number; height: number } | undefined }) {
  if (!frame) return <Text size="sm" c="dimmed">No frame {label.toLowerCase()} this step.</Text>;
  const bounds = step.element?.bounds;
  return (
    <figure style={{ margin: 0 }}>
      <div style={{ position: 'relative', lineHeight: 0 }}>
        <img src={frameUrl(executionId, frame)} alt={`The screen ${label.toLowerCase()} step ${step.seq} (${step.action})`} style={{ width: '100%', borderRadius: 8, border: '1px solid var(--mantine-color-gray-3)' }} />
        {bounds && screen && (
          <svg viewBox={`0 0 ${screen.width} ${screen.height}`} preserveAspectRatio="none" aria-hidden="true" style={{ position: 'absolute', inset: 0, width: '100%', height: '100%' }}>
            <rect x={bounds.left} y={bounds.top} width={bounds.right - bounds.left} height={bounds.bottom - bounds.top} fill="none" stroke={step.outcome === 'error' ? '#e03131' : '#1c7ed6'} strokeWidth={8} />
          </svg>
        )}
      </div>
      <Text component="figcaption" size="xs" c="dimmed" mt={4}>{label}</Text>
    </figure>
  );
}

function StepDetail({ trace, step, logTail }: { trace: Trace; step: TraceStep; logTail: string[] | undefined }) {
  const failedHere = trace.failed_step === step.seq;
  return (
    <Stack gap="sm">
      <Group gap="sm">
        <Title order={3} fz="md">Step {step.seq}: {step.action}</Title>
        <Badge color={step.outcome === 'error' ? 'red' : 'green'} variant="light">{step.outcome === 'error' ? 'Failed' : 'OK'}</Badge>
        {failedHere && <Badge color="red">The run failed at this step</Badge>}
      </Group>
      <Text size="sm" className="mono">{argsSummary(step.args) || 'no arguments'}</Text>
      <Text size="sm" c="dimmed">
        At {formatDuration(step.at_ms)} into the run, took {formatDuration(step.duration_ms)}{step.block_path ? `, block ${step.block_path}` : ''}
      </Text>
      {step.element && (
        <Text size="sm">
          On {step.element.class ?? 'an element'}
          {step.element.text ? ` "${step.element.text}"` : ''}
          {step.element.resource_id ? ` (${step.element.resource_id})` : ''}
          {step.element.bounds ? ` at ${step.element.bounds.left},${step.element.bounds.top}–${step.element.bounds.right},${step.element.bounds.bottom}` : ''}
        </Text>
      )}
      {step.error && (
        <Alert color="red" title={step.error.code}>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>{step.error.message}</Text>
        </Alert>
      )}
      {step.interrupts && step.interrupts.length > 0 && <Text size="sm">Handled {plural(step.interrupts.length, 'interrupt')} while waiting.</Text>}
      <SimpleGrid cols={2}>
        <FrameWithElement executionId={trace.execution_id} frame={step.frame_before} step={step} label="Before" screen={trace.screen} />
        <FrameWithElement executionId={trace.execution_id} frame={step.frame_after ?? (failedHere ? (trace.final_frame ?? undefined) : undefined)} step={step} label={step.frame_after ? 'After' : 'When the run failed'} screen={trace.screen} />
      </SimpleGrid>
      {failedHere && logTail && logTail.length > 0 && (
        <>
          <Text size="sm" fw={600}>The log's last lines</Text>
          <pre className="log-view" tabIndex={0} aria-label="The log's last lines when the run failed">{logTail.join('\n')}</pre>
        </>
      )}
    </Stack>
  );
}

export function RunTrace({ executionId, macroId, running }: { executionId: string; macroId: number | undefined; running: boolean }) {
  const trace = useAsync(() => getTrace(executionId), [executionId]);
  const failedRun = trace.data?.status === 'failed';
  // The log's last lines: the moment a failed run ended, shown with its failed step.
  const logTail = useAsync(() => (failedRun ? runLog(executionId, { max_lines: 20 }).then((log) => log.lines) : Promise.resolve(undefined)), [executionId, failedRun]).data;
  const [selected, setSelected] = useState<number | undefined>();
  const [compareWith, setCompareWith] = useState<{ trace: Trace } | null | undefined>();

  useEffect(() => {
    if (!running) return;
    const timer = setInterval(trace.reload, POLL_MS);
    return () => clearInterval(timer);
  }, [running, trace.reload]);

  const data = trace.data;
  // The failed step is selected when the trace arrives; otherwise the last one.
  useEffect(() => {
    if (data && selected === undefined && data.steps.length > 0) setSelected(data.failed_step ?? data.steps[data.steps.length - 1].seq);
  }, [data, selected]);

  const difference = useMemo(() => (data && compareWith ? firstDifference(data.steps, compareWith.trace.steps) : undefined), [data, compareWith]);

  if (trace.error && !data) {
    if (trace.error instanceof ApiError && trace.error.code === 'trace_not_found') {
      return (
        <Card>
          <Title order={2} fz="md" mb="xs">Trace</Title>
          <Text size="sm" c="dimmed">This run has no trace: tracing was off for it (RUN_TRACE), it kept only failed runs' traces, or the trace has expired.</Text>
        </Card>
      );
    }
    return <Card><ErrorAlert error={trace.error} title="Could not read the trace" /></Card>;
  }
  if (!data) return <Card><Text size="sm" c="dimmed" role="status">Reading the trace…</Text></Card>;

  const step = data.steps.find((s) => s.seq === selected);
  const failed = data.steps.find((s) => s.seq === data.failed_step);
  const compare = async () => {
    if (macroId === undefined) return;
    setCompareWith((await lastFinishedTraceOf(macroId, executionId)) ?? null);
  };

  return (
    <Card>
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} fz="md">Trace <Text span size="sm" c="dimmed">({plural(data.steps.length, 'step')}{running ? ' so far' : ''})</Text></Title>
          <Group gap="sm">
            {macroId !== undefined && !running && <Button size="xs" variant="default" onClick={() => void compare()}>Compare with the last finished run</Button>}
            <Button size="xs" component="a" href={traceHtmlUrl(executionId)} download={`trace-${executionId}.html`}>Download trace</Button>
          </Group>
        </Group>
        {failed && (
          <Alert color="red" title={`The run failed at step ${failed.seq}: ${failed.action}`}>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>{failed.error?.message}</Text>
          </Alert>
        )}
        {data.status === 'failed' && data.failed_step === undefined && <Text size="sm" c={TEXT.danger}>The run failed outside a device action (see the log).</Text>}
        {data.frames_capped && <Text size="sm" c="dimmed">The frame limit was reached: later steps are listed without frames.</Text>}
        {compareWith === null && <Text size="sm" c="dimmed">The macro has no other finished run with a trace to compare with.</Text>}
        {compareWith && (
          <Alert color={difference ? 'yellow' : 'green'} title={difference ? `First difference at step ${data.steps[difference.index]?.seq ?? data.steps.length + 1}` : 'Same steps as the last finished run'}>
            <Group justify="space-between">
              <Text size="sm">{difference ? difference.reason : `Both runs did the same ${plural(data.steps.length, 'step')} with the same outcomes.`} (Compared with {compareWith.trace.execution_id}.)</Text>
              {difference && data.steps[difference.index] && <Button size="xs" variant="default" onClick={() => setSelected(data.steps[difference.index].seq)}>Show that step</Button>}
            </Group>
          </Alert>
        )}
        {data.steps.length === 0 ? (
          <Text size="sm" c="dimmed">No device action yet.</Text>
        ) : (
          <>
            <ScrollArea type="auto" offsetScrollbars>
              <Group gap="xs" wrap="nowrap" role="list" aria-label="Filmstrip">
                {data.steps.map((s) => {
                  const frame = s.frame_after ?? s.frame_before;
                  return (
                    <div key={s.seq} role="listitem">
                      {/* Its name is what it shows (the step's number, and its action when there is no frame) and then the rest in words. */}
                      <button type="button" className="trace-thumb" aria-pressed={s.seq === selected} onClick={() => setSelected(s.seq)} data-outcome={s.outcome}>
                        <span className="trace-thumb-seq">{s.seq}</span>{' '}
                        {frame ? (
                          <>
                            <img src={frameUrl(data.execution_id, frame)} alt="" loading="lazy" width={54} />
                            <VisuallyHidden>{s.action}</VisuallyHidden>
                          </>
                        ) : (
                          <span className="trace-thumb-empty">{s.action}</span>
                        )}
                        {s.outcome === 'error' && <VisuallyHidden>, failed</VisuallyHidden>}
                      </button>
                    </div>
                  );
                })}
              </Group>
            </ScrollArea>
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
              <ScrollArea.Autosize mah={520} type="auto">
                <Table highlightOnHover aria-label="Timeline of the run's steps">
                  <Table.Thead>
                    <Table.Tr><Table.Th>#</Table.Th><Table.Th>At</Table.Th><Table.Th>Action</Table.Th><Table.Th>Outcome</Table.Th></Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.steps.map((s) => (
                      <Table.Tr key={s.seq} aria-selected={s.seq === selected} style={{ cursor: 'pointer', background: s.seq === selected ? 'var(--mantine-color-blue-light)' : undefined }} onClick={() => setSelected(s.seq)}>
                        <Table.Td>{s.seq}</Table.Td>
                        <Table.Td>{formatDuration(s.at_ms)}</Table.Td>
                        <Table.Td>
                          <Anchor component="button" type="button" size="sm" onClick={() => setSelected(s.seq)}>{s.action}</Anchor>
                          <Text span size="xs" c="dimmed" className="mono"> {argsSummary(s.args).slice(0, 60)}</Text>
                        </Table.Td>
                        <Table.Td>{s.outcome === 'error' ? <Text span size="sm" c={TEXT.danger} fw={600}>Failed</Text> : <Text span size="sm">OK</Text>}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </ScrollArea.Autosize>
              {step ? <StepDetail trace={data} step={step} logTail={logTail} /> : <Text size="sm" c="dimmed">Pick a step.</Text>}
            </SimpleGrid>
          </>
        )}
      </Stack>
    </Card>
  );
}
