// The recording's steps beside the live view, as they are recorded: each with a thumbnail of
// its frame (the screen just before the input, the element it acted on outlined), what it does
// and on what in words, "fragile" when it targets a point, a delete, and a change of selector
// among its candidates (SelectorPicker).
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { useAction } from '../../../lib/use-async';
import type { Size } from './gesture';
import { deleteStep } from './recorder-api';
import type { RecordedStep } from './recorder-types';
import { stepWords } from './recorder-words';
import { SelectorPicker } from './SelectorPicker';

/** The frame, small, with what the step touched drawn over it (in device pixels). */
function StepThumb({ step, screen }: { step: RecordedStep; screen: Size | undefined }) {
  const bounds = step.element?.bounds;
  const point = step.x !== undefined && step.y !== undefined ? { x: step.x, y: step.y } : step.from;
  return (
    <div className="recorder-thumb">
      <img src={step.frame_url} alt="" width={54} loading="lazy" />
      {screen && (bounds || point) && (
        <svg viewBox={`0 0 ${screen.width} ${screen.height}`} preserveAspectRatio="none" aria-hidden="true">
          {bounds && <rect x={bounds.left} y={bounds.top} width={bounds.right - bounds.left} height={bounds.bottom - bounds.top} fill="none" stroke="#ff3b8b" strokeWidth={14} />}
          {!bounds && point && <circle cx={point.x} cy={point.y} r={48} fill="none" stroke="#ff3b8b" strokeWidth={14} />}
          {step.action === 'swipe' && step.from && step.to && <line x1={step.from.x} y1={step.from.y} x2={step.to.x} y2={step.to.y} stroke="#ff3b8b" strokeWidth={14} />}
        </svg>
      )}
    </div>
  );
}

function StepItem({ recordingId, step, screen, editable, onChanged, onDeleted }: { recordingId: string; step: RecordedStep; screen: Size | undefined; editable: boolean; onChanged: (step: RecordedStep) => void; onDeleted: (seq: number) => void }) {
  const [picking, setPicking] = useState(false);
  const remove = useAction(async () => {
    await deleteStep(recordingId, step.seq);
    onDeleted(step.seq);
  });
  const words = stepWords(step);
  const pickerId = `selector-picker-${recordingId}-${step.seq}`;
  return (
    <li className="recorder-step" aria-label={`Step ${step.seq}: ${words}${step.fragile ? ', fragile' : ''}${step.interrupt ? ', handled as an interrupt' : ''}`}>
      <Group gap="sm" align="flex-start" wrap="nowrap">
        <StepThumb step={step} screen={screen} />
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Group gap={6} wrap="nowrap" align="flex-start">
            <Text size="xs" fw={700} c="dimmed" aria-hidden="true">{step.seq}</Text>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>{words}</Text>
          </Group>
          {step.fragile && (
            <Badge color="orange" variant="light" size="sm" title="It targets a point on the screen: it breaks when the layout moves">Fragile: a screen point</Badge>
          )}
          {step.interrupt && (
            <Text size="xs" c="indigo.8">A dialog’s button: replay taps it whenever the dialog shows.</Text>
          )}
          {editable && (
            <Group gap={4}>
              {step.candidates.length > 1 && (
                <Button size="compact-xs" variant="subtle" aria-expanded={picking} aria-controls={pickerId} onClick={() => setPicking((open) => !open)}>
                  {picking ? 'Close selectors' : 'Change selector…'}
                </Button>
              )}
              <Button size="compact-xs" variant="subtle" color="red" loading={remove.pending} onClick={() => void remove.run()} aria-label={`Delete step ${step.seq}`}>Delete</Button>
            </Group>
          )}
          <div id={pickerId}>
            {picking && editable && <SelectorPicker recordingId={recordingId} step={step} onChanged={(changed) => { onChanged(changed); setPicking(false); }} />}
          </div>
          <ErrorAlert error={remove.error} title="The step was not deleted" />
        </Stack>
      </Group>
    </li>
  );
}

export function RecorderSteps({ recordingId, steps, screen, editable, onChanged, onDeleted }: { recordingId: string; steps: RecordedStep[]; screen: Size | undefined; editable: boolean; onChanged: (step: RecordedStep) => void; onDeleted: (seq: number) => void }) {
  if (steps.length === 0) return <Text size="sm" c="dimmed">No steps yet: use the device on the live view, and each input becomes a step here.</Text>;
  return (
    <ol className="recorder-steps" aria-label="Recorded steps" tabIndex={0}>
      {steps.map((step) => (
        <StepItem key={step.seq} recordingId={recordingId} step={step} screen={screen} editable={editable} onChanged={onChanged} onDeleted={onDeleted} />
      ))}
    </ol>
  );
}
