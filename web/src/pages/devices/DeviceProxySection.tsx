// The proxy a device goes through (GET /api/proxy/devices/{device_id}: a list of at most
// one), with the way to the assignments tab where it is changed or its connection info read.
import { Anchor, Card, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from '../../app/router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { StatusBadge } from '../../components/StatusBadge';
import { Time } from '../../components/Time';
import { useAsync } from '../../lib/use-async';
import { deviceProxy } from '../proxies/proxies-api';

export function DeviceProxySection({ deviceId }: { deviceId: number }) {
  const proxy = useAsync(() => deviceProxy(deviceId), [deviceId]);
  const assignment = proxy.data;
  return (
    <Card aria-labelledby="device-proxy-title">
      <Stack gap="xs">
        <Title id="device-proxy-title" order={3} fz="sm">Proxy</Title>
        <ErrorAlert error={proxy.error} title="Could not read the device's proxy" />
        {proxy.loading && !proxy.data ? (
          <Loading label="Reading the proxy…" />
        ) : assignment ? (
          <>
            <Group gap="xs">
              <Text size="sm" fw={600}>{assignment.proxy.label ?? `${assignment.proxy.host}:${assignment.proxy.port}`}</Text>
              <StatusBadge value={assignment.proxy.status} />
            </Group>
            <Text size="sm" c="dimmed">
              {assignment.session_type === 'sticky' ? `Sticky session ${assignment.session_id ?? ''}` : 'Rotating session'} · assigned <Time value={assignment.created_at} />
            </Text>
          </>
        ) : (
          !proxy.error && <Text size="sm" c="dimmed">This device connects directly, without a proxy.</Text>
        )}
        <Anchor component={Link} to="/proxies?tab=assignments" size="sm" underline="always">Manage proxy assignments</Anchor>
      </Stack>
    </Card>
  );
}
