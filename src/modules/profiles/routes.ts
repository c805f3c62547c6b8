// Settings profiles: full-access keys only (the routes have no scope of their own).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../http/request-context.js';
import { fullAccessKeyRoute } from '../../http/route-auth.js';
import { errors } from '../../core/schema.js';
import { CreateProfileBody, DeletedProfile, Profile, ProfileIdParams, ProfileList, ProfileListQuery, UpdateProfileBody } from './schemas.js';
import type { ProfileService } from './service.js';

export function profileRoutes(profiles: ProfileService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['profiles'];
    app.get(
      '/api/macro-setting-profiles',
      {
        config: fullAccessKeyRoute(),
        schema: {
          operationId: 'listProfiles',
          description: "The settings profiles of one of the caller's code macros, `Default` first; `Default` is created on the first read.",
          tags,
          summary: "List a code macro's settings profiles, Default first (created on first read)",
          querystring: ProfileListQuery,
          response: { 200: ProfileList, ...errors(404, 422) },
        },
      },
      async (request) => profiles.list(contextOf(request), request.query),
    );
    app.post(
      '/api/macro-setting-profiles',
      {
        config: fullAccessKeyRoute(),
        schema: {
          operationId: 'createProfile',
          tags,
          summary: 'Create a settings profile for a code macro',
          description: 'Creates a named set of argument values for a code macro, which devices can then follow. 409 `name_taken` when the macro already has a profile of that name (`Default` included).',
          body: CreateProfileBody,
          response: { 201: Profile, ...errors(400, 404, 409, 422) },
        },
      },
      async (request, reply) => reply.code(201).send(await profiles.create(contextOf(request), request.body)),
    );
    app.put(
      '/api/macro-setting-profiles/:id',
      {
        config: fullAccessKeyRoute(),
        schema: {
          operationId: 'updateProfile',
          tags,
          summary: 'Rename a settings profile or replace its args',
          description: 'Renames a settings profile or replaces its whole set of args; the devices that follow it get the new values. Renaming `Default` answers 400 `default_profile_protected`; its args can be changed.',
          params: ProfileIdParams,
          body: UpdateProfileBody,
          response: { 200: Profile, ...errors(400, 404, 409, 422) },
        },
      },
      async (request) => profiles.update(contextOf(request), { ...request.params, ...request.body }),
    );
    app.delete(
      '/api/macro-setting-profiles/:id',
      {
        config: fullAccessKeyRoute(),
        schema: {
          operationId: 'deleteProfile',
          tags,
          summary: "Delete a settings profile; its devices follow the macro's Default",
          description: "Deletes a settings profile; the devices that followed it follow the macro's `Default` profile, whose id the answer gives. Deleting `Default` answers 400 `default_profile_protected`.",
          params: ProfileIdParams,
          response: { 200: DeletedProfile, ...errors(400, 404, 422) },
        },
      },
      async (request) => profiles.remove(contextOf(request), request.params),
    );
  };
}
