// Small pieces the marketplace pages share: a listing's rating, its visibility, its tags, and
// the choice of one of its versions (installing, and moving an installed copy).
import { Badge, Group, Select, Text } from '@mantine/core';
import type { Listing } from './marketplace-api';

/** "4.6 ★ (12)" with a sentence for assistive technology; "No reviews" without any. */
export function Rating({ rating }: { rating: Listing['rating'] }) {
  if (rating.average === null || rating.count === 0) return <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>No reviews</Text>;
  const average = rating.average.toFixed(1);
  return (
    <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
      <span aria-hidden="true">{average} ★ ({rating.count})</span>
      <span className="visually-hidden">{average} of 5 stars from {rating.count} review{rating.count === 1 ? '' : 's'}</span>
    </Text>
  );
}

export function Visibility({ listing }: { listing: Pick<Listing, 'visible' | 'hidden_by_operator'> }) {
  if (listing.hidden_by_operator) return <Badge color="red" variant="light" tt="none">Hidden by the operator</Badge>;
  if (!listing.visible) return <Badge color="gray" variant="light" tt="none">Hidden by you</Badge>;
  return <Badge color="green" variant="light" tt="none">Listed</Badge>;
}

export function Tags({ tags }: { tags: string[] }) {
  if (tags.length === 0) return null;
  return (
    <Group gap={4}>
      {tags.map((tag) => <Badge key={tag} variant="outline" color="gray" tt="none" size="sm">{tag}</Badge>)}
    </Group>
  );
}

/** A choice among a listing's versions, the latest marked; values are version numbers as text. */
export function VersionSelect({ label, versions, latest, value, onChange }: { label: string; versions: { version: number }[]; latest: number; value: string | null; onChange: (version: string) => void }) {
  return (
    <Select
      label={label}
      w={220}
      allowDeselect={false}
      value={value}
      onChange={(v) => v && onChange(v)}
      data={versions.map((v) => ({ value: String(v.version), label: v.version === latest ? `Version ${v.version} (latest)` : `Version ${v.version}` }))}
    />
  );
}
