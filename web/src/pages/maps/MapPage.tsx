// One app's menu map: the graph of its screens and transitions, and the same as a table.
import { Button, Table, Text, Title } from '@mantine/core';
import { navigate } from '../../app/router';
import { Confirm } from '../../components/Confirm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { Time } from '../../components/Time';
import { useAsync } from '../../lib/use-async';
import { describeAction, MapGraph } from './MapGraph';
import { deleteMap, getMap } from './maps-api';

export function MapPage({ params }: { params: Record<string, string> }) {
  const pkg = params.package ?? '';
  const map = useAsync(() => getMap(pkg), [pkg]);
  if (map.error !== undefined) return <ErrorAlert error={map.error} />;
  if (!map.data) return <Loading />;
  const titles = new Map(map.data.screens.map((s) => [s.screen_id, s.title]));
  // Asked first, as every delete is: relearning a map means exploring the app again.
  const actions = (
    <Confirm
      title="Delete this map?"
      confirmLabel="Delete map"
      onConfirm={async () => {
        await deleteMap(pkg);
        navigate('/maps');
      }}
      trigger={(open) => <Button color="red" variant="light" onClick={open}>Delete map</Button>}
    >
      The map of {pkg} is deleted with its {map.data.screens.length} screens and their thumbnails; AI clients can no longer read it with map_get. Exploring the app again learns it anew.
    </Confirm>
  );
  return (
    <>
      <PageHeader eyebrow="Menu map" title={pkg} description={<>{map.data.screens.length} screens and {map.data.transitions.length} transitions, learned <Time value={map.data.updated_at} />.</>} actions={actions} />
      <MapGraph map={map.data} />
      <Text size="sm" c="dimmed" mt="xs">Solid arrows are taps, labelled with what was tapped (hover for the whole step); dashed arrows are BACK.</Text>
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
              <Table.Td>{describeAction(t.action)}</Table.Td>
              <Table.Td>{titles.get(t.to)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </>
  );
}
