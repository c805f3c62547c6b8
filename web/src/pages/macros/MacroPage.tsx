// One macro: its details, its block program or its code state, and its settings profiles;
// for a copy installed from the marketplace, its version and moving it to another.
import { Anchor, Button, Group, Tabs, Text } from '@mantine/core';
import { Link, navigate, setQuery, useLocation } from '../../app/router';
import { Confirm } from '../../components/Confirm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { Time } from '../../components/Time';
import { useAsync } from '../../lib/use-async';
import { BlockEditor } from './BlockEditor';
import { CodeStatePanel } from './CodeStatePanel';
import { InstalledCopyCard } from './InstalledCopyCard';
import { MacroDetailsForm } from './MacroDetailsForm';
import { KindBadge } from './MacrosPage';
import { ProfilesPanel } from './ProfilesPanel';
import { TEXT } from '../../theme';
import { deleteMacro, getMacro } from './macros-api';

export function MacroPage({ params }: { params: Record<string, string> }) {
  const id = Number(params.id);
  const { query } = useLocation();
  const macro = useAsync(() => getMacro(id), [id]);
  const back = <Anchor component={Link} to="/macros" size="sm">← Macros</Anchor>;

  if (macro.error) return <>{back}<ErrorAlert error={macro.error} title="Could not open this macro" /></>;
  if (!macro.data) return <Loading label="Loading the macro…" />;
  const m = macro.data;
  const tabs = m.kind === 'block' ? ['details', 'program'] : ['details', 'code', 'profiles'];
  const tab = tabs.includes(query.get('tab') ?? '') ? (query.get('tab') as string) : tabs[0];
  const remove = async () => {
    await deleteMacro(id);
    navigate('/macros');
  };

  return (
    <>
      <PageHeader
        eyebrow={back}
        title={<Group gap="sm" component="span">{m.name} <KindBadge kind={m.kind} /></Group>}
        // Not its id: ids are counted across every account, so "Macro 3" would read as a count.
        description={<>Created <Time value={m.created_at} /> · updated <Time value={m.updated_at} /></>}
        actions={
          <Confirm
            title="Delete this macro?"
            confirmLabel="Delete macro"
            onConfirm={remove}
            trigger={(open) => <Button variant="default" c={TEXT.danger} onClick={open}>Delete</Button>}
          >
            “{m.name}” is deleted with its settings profiles and code snapshots. Its run history stays. This cannot be undone.
          </Confirm>
        }
      />
      {m.installed_from && <InstalledCopyCard macro={m} onMoved={macro.reload} />}
      <Tabs value={tab} onChange={(value) => setQuery({ tab: value === tabs[0] ? undefined : value })} keepMounted={false}>
        <Tabs.List mb="lg">
          <Tabs.Tab value="details">Details</Tabs.Tab>
          {m.kind === 'block' && <Tabs.Tab value="program">Block program</Tabs.Tab>}
          {m.kind === 'python' && <Tabs.Tab value="code">Code</Tabs.Tab>}
          {m.kind === 'python' && <Tabs.Tab value="profiles">Settings profiles</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="details"><MacroDetailsForm macro={m} onSaved={macro.reload} /></Tabs.Panel>
        {/* Keyed by the installed version: a copy moved to another version shows that version's program. */}
        {m.kind === 'block' && <Tabs.Panel value="program"><BlockEditor key={m.installed_from?.version ?? 0} macro={m} onSaved={macro.reload} /></Tabs.Panel>}
        {m.kind === 'python' && <Tabs.Panel value="code"><CodeStatePanel macroId={m.id} /></Tabs.Panel>}
        {m.kind === 'python' && <Tabs.Panel value="profiles"><ProfilesPanel macroId={m.id} /></Tabs.Panel>}
      </Tabs>
      <Text size="xs" c="dimmed" mt="xl">Runs of this macro are in the <Anchor component={Link} to={`/runs?macro_id=${m.id}`} size="xs" underline="always">run history</Anchor>.</Text>
    </>
  );
}
