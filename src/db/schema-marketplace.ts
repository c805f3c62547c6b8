// Table types of the marketplace (migration 0017): listings, their tags and frozen versions,
// and reviews.
import type { Generated } from 'kysely';
import type { ImageContentType, ImageSource, MacroKind } from '../core/values.js';

export interface MarketplaceListingsTable {
  id: Generated<number>;
  user_id: number;
  /** The author's macro new versions are frozen from; null once the author deleted it. */
  macro_id: number | null;
  kind: MacroKind;
  title: string;
  summary: string;
  description: string;
  /** JSON array of tags; `tags_text` holds them space-separated for the text index. */
  tags: string;
  tags_text: string;
  visible: number;
  /** Set when the operator hides the listing; nobody can see it but its author, nobody can install it. */
  hidden_at: number | null;
  hidden_reason: string | null;
  latest_version: number;
  installs: Generated<number>;
  rating_sum: Generated<number>;
  rating_count: Generated<number>;
  /** When the latest version was published. */
  published_at: number;
  created_at: number;
  updated_at: number;
}

export interface MarketplaceListingTagsTable {
  listing_id: number;
  tag: string;
}

/** A frozen version: a code version names its zip in `code_blobs`, a block version holds its program. */
export interface MarketplaceVersionsTable {
  id: Generated<number>;
  listing_id: number;
  version: number;
  notes: string | null;
  worktree_hash: string | null;
  entry_path: string | null;
  size_bytes: number | null;
  file_count: number | null;
  zip_sha256: string | null;
  blocks: string | null;
  bundle_sha: string | null;
  /** JSON object: the author's Default profile arguments when the version was published. */
  args: string;
  /** JSON array of the image ids the version's code or program references. */
  image_ids: string;
  published_at: number;
}

export interface MarketplaceReviewsTable {
  id: Generated<number>;
  listing_id: number;
  user_id: number;
  stars: number;
  text: string;
  created_at: number;
  updated_at: number;
}

/**
 * A picture a listing's versions reference, copied from the author's library when a version
 * was published (migration 0019): installs copy it from here, whatever the author's library
 * holds now. One row per listing and image id (an id always names the same bytes).
 */
export interface MarketplaceImagesTable {
  listing_id: number;
  image_id: string;
  name: string;
  width: number;
  height: number;
  content_type: ImageContentType;
  size_bytes: number;
  sha256: string;
  source: ImageSource;
  content: Buffer;
  frozen_at: number;
}
