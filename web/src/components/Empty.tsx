// What an empty list says: what would be here and how to add the first one.
import { EmptyState } from '@mantine/core';
import type { ReactNode } from 'react';

export function Empty({ icon, title, children, action }: { icon: ReactNode; title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <EmptyState py={48} icon={icon} title={title} description={children} color="indigo">
      {action}
    </EmptyState>
  );
}
