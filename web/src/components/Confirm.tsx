// Asks before something that cannot be undone (revoking a key, deleting a macro) and shows
// progress and the API's answer inside the dialog.
import { Button, Group, Modal, Text } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { type Action, useAction } from '../lib/use-async';
import { ErrorAlert } from './ErrorAlert';

export interface ConfirmProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  /** The button that opens the dialog. */
  trigger: (open: () => void) => ReactNode;
  danger?: boolean;
}

export function Confirm({ title, children, confirmLabel, onConfirm, trigger, danger = true }: ConfirmProps) {
  const [opened, setOpened] = useState(false);
  const action = useAction(onConfirm);
  const close = () => {
    setOpened(false);
    action.reset();
  };
  const confirm = async () => {
    // On failure the dialog stays open and shows the API's sentence.
    if ((await action.run()).ok) setOpened(false);
  };
  return (
    <>
      {trigger(() => setOpened(true))}
      <Modal opened={opened} onClose={close} title={<Text fw={650}>{title}</Text>} centered>
        <ConfirmBody action={action} danger={danger} confirmLabel={confirmLabel} onCancel={close} onConfirm={confirm}>
          {children}
        </ConfirmBody>
      </Modal>
    </>
  );
}

function ConfirmBody({ action, danger, confirmLabel, onCancel, onConfirm, children }: {
  action: Action<[], unknown>;
  danger: boolean;
  confirmLabel: string;
  onCancel: () => void;
  onConfirm: () => void;
  children: ReactNode;
}) {
  return (
    <>
      <ErrorAlert error={action.error} />
      <Text size="sm" mb="lg">{children}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>Cancel</Button>
        <Button color={danger ? 'red' : 'indigo'} loading={action.pending} onClick={onConfirm} data-autofocus>
          {confirmLabel}
        </Button>
      </Group>
    </>
  );
}
