// A macro installed from the marketplace: the listing and version it came from, and moving it
// to another version of that listing. A copy stays on its version until its owner chooses
// (PUT /api/marketplace/installed/{id}); a refusal (the listing gone or hidden by the
// operator) is shown in the service's words and changes nothing.
import { Alert, Anchor, Button, Card, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from '../../app/router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAction, useAsync } from '../../lib/use-async';
import { VersionSelect } from '../marketplace/ListingBits';
import { getListing, moveInstalledCopy } from '../marketplace/marketplace-api';

interface InstalledCopy {
  id: number;
  installed_from?: { listing_id: number; version: number };
}

export function InstalledCopyCard({ macro, onMoved }: { macro: InstalledCopy; onMoved: () => void }) {
  const from = macro.installed_from;
  const listing = useAsync(() => (from ? getListing(from.listing_id) : Promise.resolve(undefined)), [from?.listing_id]);
  const [chosen, setChosen] = useState<string | null>(null);
  const [moved, setMoved] = useState<number | null>(null);
  const move = useAction((version: number) => moveInstalledCopy(macro.id, version));
  if (!from) return null;
  const l = listing.data;
  const others = l ? l.versions.filter((v) => v.version !== from.version) : [];
  const target = chosen ?? (l && l.latest_version !== from.version ? String(l.latest_version) : others[0] ? String(others[0].version) : null);
  const go = async () => {
    if (target === null) return;
    const outcome = await move.run(Number(target));
    if (outcome.ok) {
      setMoved(Number(target));
      setChosen(null);
      onMoved();
    }
  };

  return (
    <Card p="md" mb="lg" role="region" aria-label="Installed from the marketplace">
      <Text fw={600} mb={4}>Installed from the marketplace</Text>
      <Text size="sm" mb="sm">
        {l ? <>From <Anchor component={Link} to={`/marketplace/${l.id}`} inherit>{l.title}</Anchor></> : <>From listing {from.listing_id}</>}, version {from.version}
        {l && (l.latest_version === from.version ? ' (the latest).' : `; the latest is version ${l.latest_version}.`)} It stays on its version until you move it; its profiles stay as you set them.
      </Text>
      {listing.error ? <Text size="sm" c="dimmed">The listing is no longer in the marketplace: this copy stays on version {from.version}.</Text> : null}
      {moved !== null && !move.error && (
        <Alert color="green" variant="light" title="Moved" mb="md" role="status">This macro now runs version {moved}.</Alert>
      )}
      <ErrorAlert error={move.error} title="Not moved" />
      {l && others.length > 0 && (
        <Group align="flex-end" gap="sm">
          <VersionSelect label="Move to version" versions={others} latest={l.latest_version} value={target} onChange={setChosen} />
          <Button onClick={() => void go()} loading={move.pending}>Move to version {target}</Button>
        </Group>
      )}
    </Card>
  );
}
