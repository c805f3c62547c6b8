// The marketplace's application routes (session only, app-api.md "Marketplace"): each
// handler parses, calls one service function and answers.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../http/request-context.js';
import { sessionRoute } from '../../http/route-auth.js';
import { errors, IdParams } from '../../core/schema.js';
import { Macro } from '../macros/index.js';
import type { MarketplaceServices } from './module.js';
import {
  CreateListingBody,
  InstallBody,
  ListingDetail,
  Listing,
  ListingPage,
  ListingQuery,
  MacroIdParams,
  NewVersionBody,
  Review,
  ReviewBody,
  ReviewPage,
  ReviewQuery,
  UpdateListingBody,
} from './schemas.js';

/** The body is optional on these routes: no body at all reads as `{}` (every field has a default). */
const noBodyIsEmpty = { preValidation: async (request: { body: unknown }) => { request.body ??= {}; } };

export function marketplaceRoutes({ listings, installs, reviews, search }: MarketplaceServices): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['marketplace'];
    app.post(
      '/api/marketplace/listings',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'publishListing',
          description:
            "Publishes one of your macros (a code macro with synced code, or a block macro with a program) as a listing with version 1. The version is frozen: your later edits never change what others install. The code or program and your Default profile's arguments are scanned for secrets first; a secret answers 422 `secret_found` naming the file and line (never the secret) and nothing is published.",
          tags,
          summary: 'Publish a macro',
          body: CreateListingBody,
          response: { 201: ListingDetail, ...errors(404, 409, 422) },
        },
      },
      async (request, reply) => reply.code(201).send(await listings.publish(contextOf(request), request.body)),
    );
    app.post(
      '/api/marketplace/listings/:id/versions',
      {
        config: sessionRoute(),
        ...noBodyIsEmpty,
        schema: {
          operationId: 'publishListingVersion',
          description:
            "Freezes the listing's macro as it is now into the next version (author only), after the same secret scan. 409 `version_unchanged` when nothing changed since the latest version, `source_macro_deleted` when the macro is gone, `macro_not_publishable` when it has nothing to run.",
          tags,
          summary: 'Publish a new version',
          params: IdParams,
          body: NewVersionBody,
          response: { 201: ListingDetail, ...errors(404, 409, 422) },
        },
      },
      async (request, reply) => reply.code(201).send(await listings.newVersion(contextOf(request), { ...request.params, ...request.body })),
    );
    app.put(
      '/api/marketplace/listings/:id',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'updateListing',
          description: "Changes a listing's title, summary, description, tags or visibility (author only). A listing you hide (`visible: false`) is seen only by you.",
          tags,
          summary: 'Change a listing',
          params: IdParams,
          body: UpdateListingBody,
          response: { 200: Listing, ...errors(400, 404, 422) },
        },
      },
      async (request) => listings.update(contextOf(request), { ...request.params, ...request.body }),
    );
    app.delete(
      '/api/marketplace/listings/:id',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'deleteListing',
          description: 'Deletes a listing with its versions and reviews (author only). Installed copies stay with their owners.',
          tags,
          summary: 'Delete a listing',
          params: IdParams,
          response: { 204: { type: 'null' }, ...errors(404, 422) },
        },
      },
      async (request, reply) => {
        await listings.remove(contextOf(request), request.params);
        return reply.code(204).send(null);
      },
    );
    app.get(
      '/api/marketplace/listings',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'searchListings',
          description:
            'A page of visible listings (and your own hidden ones). `q` matches words in title, summary and tags, case-insensitively, every word required, each also as a prefix; results are ranked by relevance unless `sort` says otherwise. Every order ends with the id, so paging is stable.',
          tags,
          summary: 'Search listings',
          querystring: ListingQuery,
          response: { 200: ListingPage, ...errors(422) },
        },
      },
      async (request) => search(contextOf(request), request.query),
    );
    app.get(
      '/api/marketplace/listings/:id',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'getListing',
          description: 'A listing with its description, its versions (newest first) and its trust figures: installs, rating, and how runs of installed copies went over the last 30 days.',
          tags,
          summary: 'Read a listing',
          params: IdParams,
          response: { 200: ListingDetail, ...errors(404, 422) },
        },
      },
      async (request) => listings.get(contextOf(request), request.params),
    );
    app.post(
      '/api/marketplace/listings/:id/install',
      {
        config: sessionRoute(),
        ...noBodyIsEmpty,
        schema: {
          operationId: 'installListing',
          description:
            "Installs a version (default the latest) as a new macro in your account: that version's code or program, its arguments as the `Default` profile (code macros), and `installed_from`. Installing again makes another macro. 409 `listing_hidden` when the operator hid the listing.",
          tags,
          summary: 'Install a listing',
          params: IdParams,
          body: InstallBody,
          response: { 201: Macro, ...errors(404, 409, 422) },
        },
      },
      async (request, reply) => reply.code(201).send(await installs.install(contextOf(request), request.params.id, request.body.version)),
    );
    app.put(
      '/api/marketplace/installed/:macro_id',
      {
        config: sessionRoute(),
        ...noBodyIsEmpty,
        schema: {
          operationId: 'moveInstalledCopy',
          description:
            "Moves one of your installed copies to another version of its listing (default the latest): its code or program becomes that version's; its profiles stay as you set them. A copy never moves on its own.",
          tags,
          summary: 'Move an installed copy to another version',
          params: MacroIdParams,
          body: InstallBody,
          response: { 200: Macro, ...errors(404, 409, 422) },
        },
      },
      async (request) => installs.moveCopy(contextOf(request), request.params.macro_id, request.body.version),
    );
    app.put(
      '/api/marketplace/listings/:id/review',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'reviewListing',
          description: "Writes your review of a listing (one per person and listing; writing again changes it). Authors cannot review their own listing (403 `own_listing`).",
          tags,
          summary: 'Review a listing',
          params: IdParams,
          body: ReviewBody,
          response: { 200: Review, ...errors(403, 404, 422) },
        },
      },
      async (request) => reviews.write(contextOf(request), request.params.id, request.body),
    );
    app.get(
      '/api/marketplace/listings/:id/reviews',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'listListingReviews',
          description: "A page of a listing's reviews, most recently written first.",
          tags,
          summary: 'List reviews',
          params: IdParams,
          querystring: ReviewQuery,
          response: { 200: ReviewPage, ...errors(404, 422) },
        },
      },
      async (request) => reviews.list(contextOf(request), request.params.id, request.query),
    );
  };
}
