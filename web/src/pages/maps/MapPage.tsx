// One app's menu map: the graph of its screens and transitions, and the same as a table.
import { Button, Table, Text, Title } from '@mantine/core';
import { navigate } from '../../app/router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { Time } from '../../components/Time';
import { useAction, useAsync } from '../../lib/use-async';
import { MapGraph } from './MapGraph';
import { deleteMap, getMap } from './maps-api';

export function MapPage({ params }: { params: Record<string, string> }) {
  const pkg = params.package ?? '';
  const map = useAsync(() => getMap(pkg), [pkg]);
  const remove = useAction(deleteMap);
  if (map.error !== undefined) return <ErrorAlert error={map.error} />;
  if (!map.data) return <Loading />;
  const titles = new Map(map.data.screens.map((s) => [s.screen_id, s.title]));
  const describe = (t: (typeof map.data.transitions)[number]) =>
    t.action.type === 'back' ? 'BACK' : `tap ${t.action.element?.text || t.action.element?.content_desc || t.action.element?.resource_id.replace(/^.*:id\//, '') || t.action.element?.class}`;
  const actions = (
    <Button color="red" variant="light" loading={remove.pending} onClick={() => void remove.run(pkg).then((r) => r.ok && navigate('/maps'))}>
      Delete map
    </Button>
  );
  return (
    <>
      <PageHeader eyebrow="Menu map" title={pkg} description={<>{map.data.screens.length} screens and {map.data.transitions.length} transitions, learned <Time value={map.data.updated_at} />.</>} actions={actions} />
      {remove.error !== undefined && <ErrorAlert error={remove.error} />}
      <MapGraph map={map.data} />
      <Title order={2} fz="lg" mt="xl" mb="sm">Transitions</Title>
      <Text size="sm" c="dimmed" mb="sm">Each way from one screen to another that the explorer saw.</Text>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>From</Table.Th>
            <Table.Th>Action</Table.Th>
            <Table.Th>To</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {map.data.transitions.map((t, i) => (
            <Table.Tr key={i}>
              <Table.Td>{titles.get(t.from)}</Table.Td>
              <Table.Td>{describe(t)}</Table.Td>
              <Table.Td>{titles.get(t.to)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </>
  );
}
