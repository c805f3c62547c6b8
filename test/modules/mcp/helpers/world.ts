// One tool-server world per test file: the app listening with its own workers and loose rate
// limits, two signed-up accounts (the owner and a stranger whose ids must never be found),
// and SDK clients made with a fresh key each, all closed after the file.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll } from 'vitest';
import { createKey, signUp, type SignedUpUser, withKey } from '../../../helpers/users.js';
import { connect, listeningApp } from './client.js';

export interface McpWorld {
  t: Awaited<ReturnType<typeof listeningApp>>;
  owner: SignedUpUser;
  stranger: SignedUpUser;
  /** An SDK client with a new key of `user` (all scopes unless given). */
  clientFor(user: SignedUpUser, scopes?: string[]): Promise<Client>;
}

export function useMcpWorld(): McpWorld {
  const clients: Client[] = [];
  const world = {
    async clientFor(user: SignedUpUser, scopes?: string[]) {
      const { key } = await createKey(world.t.app, user, { scopes, name: `k-${clients.length}` });
      const client = await connect(world.t.baseUrl, { headers: withKey(key) });
      clients.push(client);
      return client;
    },
  } as McpWorld;
  beforeAll(async () => {
    world.t = await listeningApp({ env: { RATE_LIMIT_PER_KEY: '100000', RATE_LIMIT_PER_ACCOUNT: '100000' } });
    world.owner = await signUp(world.t.app);
    world.stranger = await signUp(world.t.app);
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await world.t.close();
  });
  return world;
}
