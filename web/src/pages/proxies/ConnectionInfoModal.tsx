// How a device connects through its assigned proxy. The password stays masked until the
// user confirms a reveal, which the service writes to its audit log.
import { Alert, Button, Code, DataList, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { ConnectionInfo, ProxyAssignment } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { useAction } from '../../lib/use-async';
import { connectionInfo } from './proxies-api';

export function ConnectionInfoModal({ assignment, onClose }: { assignment: ProxyAssignment | null; onClose: () => void }) {
  const [info, setInfo] = useState<ConnectionInfo | null>(null);
  const [asking, setAsking] = useState(false);
  const load = useAction(async (reveal: boolean) => {
    if (!assignment) return;
    setInfo(await connectionInfo(assignment.id, reveal));
    setAsking(false);
  });
  useEffect(() => {
    setInfo(null);
    setAsking(false);
    load.reset();
    if (assignment) void load.run(false);
  }, [assignment]); // the action's identity is stable
  return (
    <Modal opened={assignment !== null} onClose={onClose} size="lg" title={<Text fw={650}>Connection info · {assignment?.device_name}</Text>}>
      <ErrorAlert error={load.error} />
      {!info ? (
        load.pending && <Loading label="Reading the connection info…" />
      ) : (
        <Stack>
          <DataList labelWidth={130} size="sm">
            <DataList.Item><DataList.ItemLabel>Address</DataList.ItemLabel><DataList.ItemValue><span className="mono">{info.scheme}://{info.host}:{info.port}</span></DataList.ItemValue></DataList.Item>
            <DataList.Item><DataList.ItemLabel>Username</DataList.ItemLabel><DataList.ItemValue><span className="mono">{info.username ?? '—'}</span></DataList.ItemValue></DataList.Item>
            <DataList.Item><DataList.ItemLabel>Password</DataList.ItemLabel><DataList.ItemValue><span className="mono">{info.password ?? '—'}</span></DataList.ItemValue></DataList.Item>
            <DataList.Item><DataList.ItemLabel>Session</DataList.ItemLabel><DataList.ItemValue>{info.session_type}{info.session_id ? ` · ${info.session_id}` : ''}</DataList.ItemValue></DataList.Item>
            <DataList.Item><DataList.ItemLabel>How</DataList.ItemLabel><DataList.ItemValue>{info.relay.mode === 'direct' ? 'The device connects directly' : `Through a local relay at ${info.relay.local.host}:${info.relay.local.port}`}</DataList.ItemValue></DataList.Item>
          </DataList>
          {info.relay.device_steps.length > 0 && (
            <div>
              <Text size="sm" fw={600} mb={4}>On the device</Text>
              <List size="sm" spacing={4}>{info.relay.device_steps.map((step) => <List.Item key={step}><Code>{step}</Code></List.Item>)}</List>
              <Text size="xs" c="dimmed" mt={4}>{info.relay.covers}</Text>
            </div>
          )}
          {!info.secrets_revealed && (asking ? (
            <Alert color="yellow" variant="light" title="Reveal the password?">
              <Text size="sm" mb="sm">The password is shown in clear text here, and the reveal is recorded in the audit log with the key that asked.</Text>
              <Group><Button color="red" loading={load.pending} onClick={() => void load.run(true)}>Reveal</Button><Button variant="default" onClick={() => setAsking(false)}>Cancel</Button></Group>
            </Alert>
          ) : (
            <Group><Button variant="default" onClick={() => setAsking(true)}>Reveal password…</Button></Group>
          ))}
        </Stack>
      )}
    </Modal>
  );
}
