// A listing's reviews, newest first, and the caller's own: written once, changed by writing
// again (the API keeps one per person and listing). Authors cannot review their own listing.
import { Button, Card, Group, SegmentedControl, Stack, Text, Textarea, Title } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { Pager } from '../../components/Pager';
import { Time } from '../../components/Time';
import { useAction, useAsync } from '../../lib/use-async';
import { type ListingDetail, listReviews, type Review, writeReview } from './marketplace-api';

const PAGE_SIZE = 10;
const stars = (n: number) => '★'.repeat(n) + '☆'.repeat(5 - n);

function ReviewForm({ listingId, own, onSaved }: { listingId: number; own: Review | undefined; onSaved: () => void }) {
  const [value, setValue] = useState(String(own?.stars ?? 5));
  const [text, setText] = useState(own?.text ?? '');
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    setValue(String(own?.stars ?? 5));
    setText(own?.text ?? '');
  }, [own?.id, own?.updated_at]);
  const save = useAction(() => writeReview(listingId, { stars: Number(value), ...(text.trim() ? { text } : {}) }));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    if ((await save.run()).ok) {
      setSaved(true);
      onSaved();
    }
  };
  return (
    <Card p="md" mb="md" component="form" onSubmit={(e: FormEvent) => void submit(e)} aria-label={own ? 'Your review' : 'Write a review'}>
      <Stack gap="sm">
        <Title order={3} fz={15}>{own ? 'Your review' : 'Write a review'}</Title>
        <ErrorAlert error={save.error} title="The review was not saved" />
        <Stack gap={6}>
          <Text size="sm" fw={500} id="review-stars-label">Stars</Text>
          <SegmentedControl aria-labelledby="review-stars-label" value={value} onChange={setValue} data={['1', '2', '3', '4', '5'].map((n) => ({ value: n, label: `${n} ★` }))} w={320} />
        </Stack>
        <Textarea label="Review" description="Optional, up to 2,000 characters" autosize minRows={2} maxLength={2000} value={text} onChange={(e) => setText(e.currentTarget.value)} />
        <Group gap="sm">
          <Button type="submit" loading={save.pending}>{own ? 'Update review' : 'Post review'}</Button>
          {saved && <Text size="sm" c="dimmed" role="status">Saved.</Text>}
        </Group>
      </Stack>
    </Card>
  );
}

export function ReviewsSection({ listing, mine, userId, onChanged }: { listing: ListingDetail; mine: boolean; userId: number | undefined; onChanged: () => void }) {
  const [page, setPage] = useState(1);
  const reviews = useAsync(() => listReviews(listing.id, page, PAGE_SIZE), [listing.id, page]);
  // The caller's own review, to edit: the newest-first pages hold it; an older one off the
  // first page is still replaced by writing again.
  const own = reviews.data?.rows.find((r) => r.author.id === userId);
  return (
    <Stack gap="xs" mt="lg">
      <Title order={2} fz={17}>Reviews</Title>
      {mine ? (
        <Text size="sm" c="dimmed" mb="sm">This is your listing: authors do not review their own.</Text>
      ) : (
        reviews.data && <ReviewForm listingId={listing.id} own={own} onSaved={() => { reviews.reload(); onChanged(); }} />
      )}
      <ErrorAlert error={reviews.error} title="Could not load reviews" />
      {reviews.loading && !reviews.data && <Loading label="Loading reviews…" />}
      {reviews.data?.rows.length === 0 && <Text size="sm" c="dimmed">No reviews yet.</Text>}
      {reviews.data?.rows.map((r) => (
        <Card key={r.id} p="md" component="article" aria-label={`Review by ${r.author.name}`}>
          <Group justify="space-between">
            <Text size="sm" fw={600}>{r.author.name}{r.author.id === userId ? ' (you)' : ''}</Text>
            <Text size="xs" c="dimmed"><Time value={r.updated_at} /></Text>
          </Group>
          <Text size="sm"><span aria-hidden="true">{stars(r.stars)}</span><span className="visually-hidden">{r.stars} of 5 stars</span></Text>
          {r.text && <Text size="sm" mt={4} style={{ whiteSpace: 'pre-wrap' }}>{r.text}</Text>}
        </Card>
      ))}
      {reviews.data && reviews.data.total_rows > 0 && <Pager noun="review" info={reviews.data} onPage={setPage} />}
    </Stack>
  );
}
