// The author's side: your listings (hidden ones too), publishing a macro, a new version,
// hiding or showing a listing, deleting one (installed copies stay with their owners).
import { Anchor, Button, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useLocation } from '../../app/router';
import { PlusIcon, SparkIcon } from '../../components/icons';
import { PageHeader } from '../../components/PageHeader';
import { pageFrom } from '../../components/Pager';
import { type Column, ResourceTable } from '../../components/ResourceTable';
import { useAsync } from '../../lib/use-async';
import { Rating, Visibility } from './ListingBits';
import { deleteListing, type Listing, searchListings, updateListing } from './marketplace-api';
import { NewVersionModal, PublishModal } from './PublishModal';

const PAGE_SIZE = 20;

const COLUMNS: Column<Listing>[] = [
  {
    header: 'Listing',
    maxWidth: 320,
    cell: (l) => (
      <Stack gap={2}>
        <Anchor component={Link} to={`/marketplace/${l.id}`} fw={600} size="sm">{l.title}</Anchor>
        <Text size="xs" c="dimmed" truncate="end">{l.kind === 'python' ? 'Python' : 'Block'} · version {l.latest_version} · {l.summary}</Text>
      </Stack>
    ),
  },
  { header: 'Installs', cell: (l) => <Text size="sm">{l.installs.toLocaleString('en')}</Text> },
  { header: 'Rating', cell: (l) => <Rating rating={l.rating} /> },
  { header: 'Shown', cell: (l) => <Visibility listing={l} /> },
];

export function MyListingsPage() {
  const page = pageFrom(useLocation().query);
  const [publishing, setPublishing] = useState(false);
  const [versioning, setVersioning] = useState<Listing | null>(null);
  const listings = useAsync(() => searchListings({ author: 'me', sort: 'new', page, page_size: PAGE_SIZE }), [page]);
  const toggle = async (l: Listing) => {
    await updateListing(l.id, { visible: !l.visible });
    listings.reload();
  };
  return (
    <>
      <PageHeader
        eyebrow={<Anchor component={Link} to="/marketplace" size="sm">Marketplace</Anchor>}
        title="My listings"
        description="Macros you published. Each version is frozen when published: later edits to your macro reach others only as a new version."
        actions={<Button leftSection={<PlusIcon size={16} />} onClick={() => setPublishing(true)}>Publish a macro</Button>}
      />
      <ResourceTable
        noun="listing"
        list={listings}
        columns={COLUMNS}
        rowKey={(l) => l.id}
        minWidth={860}
        rowActions={(l) => (
          <>
            <Button size="xs" variant="light" onClick={() => setVersioning(l)} aria-label={`New version of ${l.title}`}>New version</Button>
            <Button size="xs" variant="subtle" onClick={() => void toggle(l)} aria-label={`${l.visible ? 'Hide' : 'Show'} ${l.title}`}>{l.visible ? 'Hide' : 'Show'}</Button>
          </>
        )}
        remove={{
          buttonLabel: (l) => `Delete ${l.title}`,
          title: 'Delete this listing?',
          confirmLabel: 'Delete listing',
          body: (l) => <>“{l.title}” leaves the marketplace with its versions and reviews. The {l.installs} installed cop{l.installs === 1 ? 'y stays' : 'ies stay'} with their owners.</>,
          run: async (l) => {
            await deleteListing(l.id);
            listings.reload();
          },
        }}
        empty={{
          icon: <SparkIcon size={22} />,
          title: 'You have not published anything',
          body: 'Publish a macro you are proud of: others can find it, review it and install a copy.',
          action: <Button onClick={() => setPublishing(true)}>Publish a macro</Button>,
        }}
      />
      <PublishModal opened={publishing} onClose={() => setPublishing(false)} onPublished={listings.reload} />
      <NewVersionModal listing={versioning} onClose={() => setVersioning(null)} onPublished={listings.reload} />
    </>
  );
}
