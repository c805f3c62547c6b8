// One colour per state across the console, with dark text shades that keep 4.5:1 contrast.
import { Badge } from '@mantine/core';

const COLORS: Record<string, string> = {
  Active: 'green',
  active: 'green',
  trialing: 'indigo',
  inactive: 'red',
  Revoked: 'gray',
  Expired: 'orange',
  running: 'blue',
  completed: 'green',
  failed: 'red',
  stopped: 'gray',
  pending: 'yellow',
  succeeded: 'green',
  exhausted: 'red',
  unchecked: 'gray',
  live: 'green',
  dead: 'red',
  ready: 'green',
  starting: 'blue',
  placing: 'blue',
  stopping: 'yellow',
  error: 'red',
  enabled: 'green',
  disabled: 'orange',
};

export function StatusBadge({ value, label }: { value: string; label?: string }) {
  const color = COLORS[value] ?? 'gray';
  return (
    <Badge color={color} variant="light" radius="sm" tt="none" fw={600}>
      {label ?? value}
    </Badge>
  );
}
