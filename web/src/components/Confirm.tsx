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
  /** The button that opens the dialog; or leave it out and control `opened`. */
  trigger?: (open: () => void) => ReactNode;
  opened?: boolean;
  onClose?: () => void;
  danger?: boolean;
}

export function Confirm({ title, children, confirmLabel, onConfirm, trigger, danger = true, ...controlled }: ConfirmProps) {
  const [openedHere, setOpenedHere] = useState(false);
  const opened = controlled.opened ?? openedHere;
  const setOpened = (value: boolean) => {
    setOpenedHere(value);
    if (!value) controlled.onClose?.();
  };
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
      {trigger?.(() => setOpened(true))}
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
