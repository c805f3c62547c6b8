// Changing a recorded step's selector: its candidates (§18's order: resource id, text,
// description, with an index, a picture, the point) read again with how many elements each
// matches on the screen now, so a person sees which still finds exactly one; choosing one
// sends `PATCH …/steps/{seq} {chosen}`.
import { Radio, Stack, Text } from '@mantine/core';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { useAction, useAsync } from '../../../lib/use-async';
import { TEXT } from '../../../theme';
import { chooseCandidate, stepCandidates } from './recorder-api';
import type { RecordedStep } from './recorder-types';
import { matchWords, selectorWords } from './recorder-words';

export function SelectorPicker({ recordingId, step, onChanged }: { recordingId: string; step: RecordedStep; onChanged: (step: RecordedStep) => void }) {
  const candidates = useAsync(() => stepCandidates(recordingId, step.seq), [recordingId, step.seq]);
  const choose = useAction(async (index: number) => onChanged(await chooseCandidate(recordingId, step.seq, index)));
  if (candidates.error && !candidates.data) return <ErrorAlert error={candidates.error} title="Could not read the candidates" />;
  if (!candidates.data) return <Text size="xs" c="dimmed" role="status">Counting each candidate’s matches on the screen…</Text>;
  return (
    <Stack gap={6}>
      <Radio.Group
        label={`Selector for step ${step.seq}`}
        description="How many elements each one matches on the screen now: one is what replay needs."
        value={String(step.chosen)}
        onChange={(value) => void choose.run(Number(value))}
        size="xs"
      >
        <Stack gap={6} mt={6}>
          {candidates.data.map((candidate, index) => (
            <Radio
              key={index}
              value={String(index)}
              disabled={choose.pending}
              label={
                candidate.kind === 'coordinates' ? (
                  <>
                    <span className="mono">{step.x !== undefined && step.y !== undefined ? `the point ${step.x}, ${step.y}` : 'the point touched'}</span>{' '}
                    <Text span size="xs" c={TEXT.warning} fw={600}>(fragile: right only while the layout stays as it is)</Text>
                  </>
                ) : (
                  <>
                    <span className="mono">{selectorWords(candidate.selector)}</span>{' '}
                    <Text span size="xs" c={candidate.matches === 1 ? TEXT.success : TEXT.danger} fw={600}>({matchWords(candidate.matches)})</Text>
                  </>
                )
              }
            />
          ))}
        </Stack>
      </Radio.Group>
      <ErrorAlert error={choose.error} title="The selector was not changed" />
    </Stack>
  );
}
