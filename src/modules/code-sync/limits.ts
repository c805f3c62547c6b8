// The limits of a code snapshot, read by the upload's checks and by whatever unpacks a stored snapshot.
const MiB = 1024 * 1024;

/** The contract's limits (service-api.md "Limits", decisions.md §5). */
export const SNAPSHOT_LIMITS = {
  /** The whole request body; the route enforces it (413). */
  maxBodyBytes: 16 * MiB,
  maxZipBytes: 10 * MiB,
  maxFiles: 5000,
  maxUncompressedBytes: 100 * MiB,
  /** Files above this get a `large_file` warning. */
  largeFileBytes: MiB,
} as const;
