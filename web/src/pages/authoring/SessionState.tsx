// A session's state as a badge, in the words a person reads.
import { StatusBadge } from '../../components/StatusBadge';
import type { AuthoringSession } from './authoring-api';

const LABELS: Record<AuthoringSession['state'], { color: string; label: string }> = {
  working: { color: 'running', label: 'working' },
  waiting_for_answer: { color: 'pending', label: 'waiting for answer' },
  done: { color: 'succeeded', label: 'done' },
  failed: { color: 'failed', label: 'failed' },
  stopped: { color: 'stopped', label: 'stopped' },
};

export function SessionState({ session }: { session: Pick<AuthoringSession, 'state'> }) {
  const { color, label } = LABELS[session.state];
  return <StatusBadge value={color} label={label} />;
}
