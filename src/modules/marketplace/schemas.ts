// The marketplace's route schemas (app-api.md "Marketplace"): each one validates, types and
// documents its route.
import { type Static, Type } from 'typebox';
import { PageQuery, Paged } from '../../core/paging.js';
import { DateTime, Id, Nullable, StringEnum } from '../../core/schema.js';
import { MACRO_KINDS } from '../../core/values.js';

export const LISTING_SORTS = ['popular', 'new', 'rating', 'relevance'] as const;
export type ListingSort = (typeof LISTING_SORTS)[number];

const Title = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const Summary = Type.String({ minLength: 1, maxLength: 300, pattern: '\\S' });
const Description = Type.String({ maxLength: 20_000, description: 'Markdown' });
const Tag = Type.String({ minLength: 1, maxLength: 32, pattern: '^[a-z0-9-]+$' });
const Tags = Type.Array(Tag, { maxItems: 10, uniqueItems: true, description: 'At most 10 tags of `a-z0-9-`, 32 characters each' });
const Notes = Type.String({ maxLength: 2000 });

export const ListingAuthor = Type.Object({ id: Type.Integer(), name: Type.String() }, { description: "The author's id and display name (never the email)" });

const TrustFigures = Type.Object(
  {
    window_days: Type.Integer({ description: 'The window the run figures cover (30 days)' }),
    runs: Type.Integer({ description: 'Runs of installed copies started in the window' }),
    finished_runs: Type.Integer({ description: 'Of those, the runs that have ended' }),
    completed_share: Nullable(Type.Number({ description: 'Share of ended runs that completed, 0 to 1; null when none ended' })),
  },
  { description: 'How runs of installed copies went over the last 30 days' },
);

const listingFields = {
  id: Type.Integer(),
  title: Type.String(),
  summary: Type.String(),
  author: ListingAuthor,
  kind: StringEnum(MACRO_KINDS),
  tags: Type.Array(Type.String()),
  latest_version: Type.Integer(),
  installs: Type.Integer(),
  rating: Type.Object({ average: Nullable(Type.Number()), count: Type.Integer() }, { description: 'Average stars (null without reviews) and how many reviews' }),
  visible: Type.Boolean({ description: "false when the author hid it: only the author sees it" }),
  hidden_by_operator: Type.Boolean({ description: 'true when the operator hid it: only the author sees it, and nobody can install it' }),
  created_at: DateTime(),
  updated_at: DateTime(),
};

export const Listing = Type.Object(listingFields, { $id: 'MarketplaceListing' });

export const ListingVersion = Type.Object(
  {
    version: Type.Integer(),
    notes: Nullable(Type.String()),
    worktree_hash: Type.Optional(Type.String({ description: 'Code listings: the frozen snapshot (decisions.md §5)' })),
    bundle_sha: Type.Optional(Type.String({ description: "Block listings: SHA-256 of the program's canonical JSON" })),
    image_ids: Type.Array(Type.String(), { description: 'Images the code or program references, copied with each install' }),
    published_at: DateTime(),
  },
  { $id: 'MarketplaceListingVersion' },
);

export const ListingDetail = Type.Object(
  { ...listingFields, description: Type.String(), versions: Type.Array(ListingVersion, { description: 'Newest first' }), trust: TrustFigures },
  { $id: 'MarketplaceListingDetail' },
);

export const ListingPage = Paged(Listing, 'MarketplaceListingPage');

export const CreateListingBody = Type.Object(
  {
    macro_id: Id('Your macro: a code macro with synced code, or a block macro'),
    title: Title,
    summary: Summary,
    description: Type.Optional(Description),
    tags: Type.Optional(Tags),
    notes: Type.Optional(Notes),
  },
  { additionalProperties: false },
);
export type CreateListingInput = Static<typeof CreateListingBody>;

export const NewVersionBody = Type.Object({ notes: Type.Optional(Notes) }, { additionalProperties: false });
export type NewVersionInput = Static<typeof NewVersionBody>;

export const UpdateListingBody = Type.Object(
  { title: Type.Optional(Title), summary: Type.Optional(Summary), description: Type.Optional(Description), tags: Type.Optional(Tags), visible: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateListingInput = Static<typeof UpdateListingBody>;

export const ListingQuery = Type.Object(
  {
    ...PageQuery,
    q: Type.Optional(Type.String({ maxLength: 200, description: 'Words in title, summary or tags (every word must match; a word also matches as a prefix)' })),
    tag: Type.Optional(Tag),
    author: Type.Optional(StringEnum(['me'] as const, { description: '`me`: only your own listings, hidden ones included' })),
    sort: Type.Optional(
      StringEnum(LISTING_SORTS, {
        description: '`popular` (installs; the default without `q`), `new` (latest publication), `rating` (average stars weighted by count), `relevance` (the default with `q`: the 1,000 most installed matches ordered by how well they match, then the other matches by installs)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ListingQueryInput = Static<typeof ListingQuery>;

export const InstallBody = Type.Object({ version: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Default: the latest' })) }, { additionalProperties: false });
export type InstallInput = Static<typeof InstallBody>;

export const ReviewBody = Type.Object(
  { stars: Type.Integer({ minimum: 1, maximum: 5 }), text: Type.Optional(Type.String({ maxLength: 2000 })) },
  { additionalProperties: false },
);
export type ReviewInput = Static<typeof ReviewBody>;

export const Review = Type.Object(
  { id: Type.Integer(), listing_id: Type.Integer(), author: ListingAuthor, stars: Type.Integer(), text: Type.String(), created_at: DateTime(), updated_at: DateTime() },
  { $id: 'MarketplaceReview' },
);
export const ReviewPage = Paged(Review, 'MarketplaceReviewPage');
export const ReviewQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

export const MacroIdParams = Type.Object({ macro_id: Id('Your installed macro') });

export const HideBody = Type.Object(
  { hidden: Type.Boolean(), reason: Type.Optional(Type.String({ maxLength: 500, description: 'Kept for the operator; never shown to users' })) },
  { additionalProperties: false },
);
export type HideInput = Static<typeof HideBody>;

export const AdminListing = Type.Object(
  { ...listingFields, author_email: Type.String(), hidden_reason: Nullable(Type.String()) },
  { $id: 'AdminMarketplaceListing' },
);
export const AdminListingQuery = Type.Object(
  { ...PageQuery, hidden: Type.Optional(Type.Boolean({ description: 'Only hidden (true) or only shown (false) listings' })) },
  { additionalProperties: false },
);
export type AdminListingQueryInput = Static<typeof AdminListingQuery>;
export const AdminListingPage = Paged(AdminListing, 'AdminMarketplaceListingPage');
