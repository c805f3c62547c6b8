// The marketplace's own refusals, each with its status and code (docs/marketplace.md).
import { AppError, ConflictError, ForbiddenError, NotFoundError } from '../../core/errors.js';
import type { SecretFinding } from './secret-scan.js';

export const listingNotFound = () => new NotFoundError('No marketplace listing with this id.');

export const versionNotFound = (version: number) => new NotFoundError(`This listing has no version ${version}.`, 'version_not_found');

/** 409 `macro_not_publishable`: no synced code, or a block program that cannot run. */
export const notPublishable = (message: string) => new ConflictError('macro_not_publishable', message);

export const versionUnchanged = () =>
  new ConflictError('version_unchanged', "The macro's code or program and its Default arguments are the same as in the latest version; change something before publishing a new version.");

export const sourceMacroGone = () =>
  new ConflictError('source_macro_deleted', "The macro this listing was published from has been deleted, so no new version can be frozen. Publish a new listing from another macro.");

export const listingHidden = () => new ConflictError('listing_hidden', 'The operator has hidden this listing; it cannot be installed.');

export const ownListingReview = () => new ForbiddenError('own_listing', 'Authors cannot review their own listing.');

export const notAnInstalledCopy = () => new NotFoundError('No macro of yours installed from the marketplace with this id.', 'not_an_installed_copy');

/** 422 `secret_found`: names where each secret is and what kind it is, never the secret. */
export class SecretFoundError extends AppError {
  constructor(findings: SecretFinding[]) {
    const [first] = findings;
    const where = first ? `${first.path}${first.line === undefined ? '' : ` line ${first.line}`} holds ${first.label}` : 'it holds a secret';
    const more = findings.length > 1 ? ` (and ${findings.length - 1} more finding${findings.length > 2 ? 's' : ''})` : '';
    super(
      422,
      'secret_found',
      `Nothing was published: ${where}${more}. Remove it from the code or program, and keep secrets in a profile other than Default (only Default's arguments are published).`,
      { findings },
    );
  }
}
