// One listing: what it does, the figures a person judges it by (installs, rating, how runs of
// installed copies went over 30 days), its frozen versions, an install button with the
// version to install, and its reviews.
import { Alert, Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from '../../app/router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { Time } from '../../components/Time';
import { useAction, useAsync } from '../../lib/use-async';
import { useSession } from '../../state/session';
import { KindBadge } from '../macros/MacrosPage';
import { Tags, VersionSelect, Visibility } from './ListingBits';
import { getListing, installListing, type ListingDetail } from './marketplace-api';
import { ReviewsSection } from './ReviewsSection';

function Figure({ label, value, note }: { label: string; value: string; note: string }) {
  return (
    <Card p="md">
      <Text size="sm" c="dimmed">{label}</Text>
      <Text fz={24} fw={650} lh={1.3}>{value}</Text>
      <Text size="xs" c="dimmed">{note}</Text>
    </Card>
  );
}

/** The trust signals, as figures with what each one counts. */
function TrustFigures({ listing }: { listing: ListingDetail }) {
  const { rating, trust } = listing;
  const share = trust.completed_share === null ? '—' : `${Math.round(trust.completed_share * 100)}%`;
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} mb="lg" role="group" aria-label="Trust signals">
      <Figure label="Installs" value={listing.installs.toLocaleString('en')} note="copies installed by other people" />
      <Figure label="Rating" value={rating.average === null ? '—' : `${rating.average.toFixed(1)} / 5`} note={rating.count === 0 ? 'no reviews yet' : `from ${rating.count} review${rating.count === 1 ? '' : 's'}`} />
      <Figure label={`Runs, last ${trust.window_days} days`} value={trust.runs.toLocaleString('en')} note={`of installed copies; ${trust.finished_runs} ended`} />
      <Figure label="Completed" value={share} note={trust.finished_runs === 0 ? 'no run has ended yet' : `of ${trust.finished_runs} ended run${trust.finished_runs === 1 ? '' : 's'}`} />
    </SimpleGrid>
  );
}

/** The install button with its version: the latest unless another is chosen. */
function InstallCard({ listing }: { listing: ListingDetail }) {
  const [version, setVersion] = useState<string>(String(listing.latest_version));
  const install = useAction(() => installListing(listing.id, Number(version)));
  const [installed, setInstalled] = useState<{ id: number; name: string; version: number } | null>(null);
  const go = async () => {
    const outcome = await install.run();
    if (outcome.ok) setInstalled({ id: outcome.value.id, name: outcome.value.name, version: Number(version) });
  };
  return (
    <Card p="md" mb="lg">
      <ErrorAlert error={install.error} title="Not installed" />
      {installed && (
        <Alert color="green" variant="light" title="Installed" mb="md" role="status">
          Version {installed.version} is now your macro <Anchor component={Link} to={`/macros/${installed.id}`} inherit>{installed.name}</Anchor>. It stays on this version until you choose another.
        </Alert>
      )}
      <Group align="flex-end" gap="sm">
        <VersionSelect label="Version" versions={listing.versions} latest={listing.latest_version} value={version} onChange={setVersion} />
        <Button onClick={() => void go()} loading={install.pending} disabled={listing.hidden_by_operator}>Install</Button>
        <Text size="sm" c="dimmed" maw={460}>
          {listing.hidden_by_operator ? 'The operator hid this listing: it cannot be installed.' : 'Makes a new macro in your account with this version’s code or program and its Default arguments.'}
        </Text>
      </Group>
    </Card>
  );
}

/** An author does not install their own listing: the macro it was published from is theirs already. */
function OwnListingNote() {
  return (
    <Card p="md" mb="lg">
      <Text size="sm">
        This is your listing: it was published from one of your macros, so there is nothing to install. New versions and hiding it are on <Anchor component={Link} to="/marketplace/mine" inherit underline="always">My listings</Anchor>.
      </Text>
    </Card>
  );
}

function Versions({ listing }: { listing: ListingDetail }) {
  return (
    <Card p={0} mb="lg">
      <Table.ScrollContainer minWidth={640}>
        <Table aria-label="Versions">
          <Table.Thead>
            <Table.Tr><Table.Th>Version</Table.Th><Table.Th>Notes</Table.Th><Table.Th>Frozen content</Table.Th><Table.Th>Published</Table.Th></Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {listing.versions.map((v) => (
              <Table.Tr key={v.version}>
                <Table.Td><Text size="sm" fw={600}>{v.version}</Text></Table.Td>
                <Table.Td maw={360}><Text size="sm" c={v.notes ? undefined : 'dimmed'}>{v.notes || '—'}</Text></Table.Td>
                <Table.Td>
                  <Text size="xs" ff="monospace" title={v.worktree_hash ?? v.bundle_sha}>{(v.worktree_hash ?? v.bundle_sha ?? '').slice(0, 12)}</Text>
                  {v.image_ids.length > 0 && <Text size="xs" c="dimmed">{v.image_ids.length} image{v.image_ids.length === 1 ? '' : 's'}</Text>}
                </Table.Td>
                <Table.Td><Text size="sm"><Time value={v.published_at} /></Text></Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}

export function ListingPage({ params }: { params: Record<string, string> }) {
  const id = Number(params.id);
  const { user } = useSession();
  const listing = useAsync(() => getListing(id), [id]);
  const l = listing.data;
  if (!l) return listing.error ? <ErrorAlert error={listing.error} title="Could not load this listing" /> : <Loading label="Loading the listing…" />;
  const mine = user?.id === l.author.id;
  return (
    <>
      <PageHeader
        // Underlined: inside a line of text a link must not be told apart by colour alone.
        eyebrow={<><Anchor component={Link} to="/marketplace" size="sm" underline="always">Marketplace</Anchor> · by {l.author.name}</>}
        title={l.title}
        description={l.summary}
        actions={mine ? <Button component={Link} to="/marketplace/mine" variant="default">Manage in My listings</Button> : undefined}
      />
      <Group gap="xs" mb="md">
        <KindBadge kind={l.kind} />
        <Badge variant="light" color="gray" tt="none">Version {l.latest_version}</Badge>
        {mine && <Visibility listing={l} />}
        <Tags tags={l.tags} />
      </Group>
      <TrustFigures listing={l} />
      {mine ? <OwnListingNote /> : <InstallCard listing={l} />}
      {l.description && (
        <Card p="md" mb="lg">
          <Title order={2} fz={17} mb="xs">About</Title>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>{l.description}</Text>
        </Card>
      )}
      <Stack gap="xs">
        <Title order={2} fz={17}>Versions</Title>
        <Versions listing={l} />
      </Stack>
      <ReviewsSection listing={l} mine={mine} userId={user?.id} onChanged={listing.reload} />
    </>
  );
}
