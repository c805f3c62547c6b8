// Calling the code-sync routes in tests: an app with room for many uploads, a user with a
// macros:run key, and shortcuts for the two routes.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createMacro } from './resources.js';
import { createKey, signUp, type SignedUpUser, withKey } from './users.js';

/** Uploads are many in these files; the contract's rate limits are tested elsewhere. */
export const ROOMY_LIMITS = { RATE_LIMIT_PER_KEY: '100000', RATE_LIMIT_PER_ACCOUNT: '100000' };

export interface Syncer {
  user: SignedUpUser;
  key: string;
  macroId: number;
  upload(payload: unknown, macroId?: number): Promise<LightMyRequestResponse>;
  state(macroId?: number): Promise<LightMyRequestResponse>;
}

export async function newSyncer(app: FastifyInstance): Promise<Syncer> {
  const user = await signUp(app);
  const { key } = await createKey(app, user, { scopes: ['macros:run'] });
  const macro = await createMacro(app, user, { kind: 'python' });
  return {
    user,
    key,
    macroId: macro.id,
    upload: (payload, macroId = macro.id) =>
      app.inject({ method: 'POST', url: `/api/macros/${macroId}/code-snapshot`, headers: withKey(key), payload: payload as object }),
    state: (macroId = macro.id) => app.inject({ url: `/api/macros/${macroId}/code-state`, headers: withKey(key) }),
  };
}
