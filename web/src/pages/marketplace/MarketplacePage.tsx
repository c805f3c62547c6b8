// The marketplace: every listed macro, searched by words (title, summary, tags) and ordered
// by installs, publication or rating, a page at a time; the filters live in the query string.
import { Anchor, Button, Stack, Text } from '@mantine/core';
import { Link, useLocation } from '../../app/router';
import { FilterBar } from '../../components/FilterBar';
import { SparkIcon } from '../../components/icons';
import { PageHeader } from '../../components/PageHeader';
import { pageFrom } from '../../components/Pager';
import { type Column, ResourceTable } from '../../components/ResourceTable';
import { Time } from '../../components/Time';
import { useAsync } from '../../lib/use-async';
import { KindBadge } from '../macros/MacrosPage';
import { Rating } from './ListingBits';
import { type Listing, type ListingSort, searchListings } from './marketplace-api';

const PAGE_SIZE = 20;
const SORTS: { value: ListingSort; label: string }[] = [
  { value: 'popular', label: 'Most installed' },
  { value: 'new', label: 'Newest' },
  { value: 'rating', label: 'Best rated' },
];
const isSort = (value: string | null): value is ListingSort => value !== null && ['popular', 'new', 'rating', 'relevance'].includes(value);

export const COLUMNS: Column<Listing>[] = [
  {
    header: 'Listing',
    maxWidth: 420,
    cell: (l) => (
      <Stack gap={2}>
        <Anchor component={Link} to={`/marketplace/${l.id}`} fw={600} size="sm">{l.title}</Anchor>
        <Text size="xs" c="dimmed" truncate="end">{l.summary}</Text>
      </Stack>
    ),
  },
  { header: 'Kind', cell: (l) => <KindBadge kind={l.kind} /> },
  { header: 'Author', cell: (l) => <Text size="sm">{l.author.name}</Text> },
  { header: 'Installs', cell: (l) => <Text size="sm">{l.installs.toLocaleString('en')}</Text> },
  { header: 'Rating', cell: (l) => <Rating rating={l.rating} /> },
  { header: 'Updated', cell: (l) => <Text size="sm"><Time value={l.updated_at} /></Text> },
];

export function MarketplacePage() {
  const { query } = useLocation();
  const page = pageFrom(query);
  const q = query.get('q') ?? '';
  // With words the best matches come first unless another order is chosen.
  const fallback: ListingSort = q ? 'relevance' : 'popular';
  const raw = query.get('sort');
  const sort: ListingSort = isSort(raw) ? raw : fallback;
  const listings = useAsync(() => searchListings({ page, page_size: PAGE_SIZE, sort, ...(q ? { q } : {}) }), [page, q, sort]);
  return (
    <>
      <PageHeader
        title="Marketplace"
        description="Macros other people published. Installing one copies a frozen version into your macros; it stays on that version until you choose a newer one."
        actions={<Button component={Link} to="/marketplace/mine" variant="default">My listings</Button>}
      />
      <ResourceTable
        noun="listing"
        list={listings}
        columns={COLUMNS}
        rowKey={(l) => l.id}
        minWidth={860}
        toolbar={
          <FilterBar
            label="Search the marketplace"
            filtered={q !== ''}
            fields={[
              { kind: 'text', param: 'q', label: 'Search listings', width: 360 },
              { kind: 'select', param: 'sort', label: 'Order', fallback, data: q ? [{ value: 'relevance', label: 'Best match' }, ...SORTS] : SORTS },
            ]}
          />
        }
        filtered={q !== ''}
        noMatch={{ title: 'No listing matches', body: <>No listing has every word of “{q}” in its title, summary or tags.</> }}
        empty={{ icon: <SparkIcon size={22} />, title: 'Nothing published yet', body: 'When someone publishes a macro it appears here.', action: <Button component={Link} to="/marketplace/mine">Publish one of your macros</Button> }}
      />
    </>
  );
}
