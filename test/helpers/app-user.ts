// The most common test-file set-up, written once: one app on a fresh database for the file
// and one signed-up user, registered as the calling file's hooks (see useDeliveryWorld for
// the webhook delivery tests' larger world).
import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp, type TestAppOptions } from './app.js';
import { signUp, type SignedUpUser } from './users.js';

export interface AppAndUser {
  readonly t: TestApp;
  /** Signed up once for the file, before its first test. */
  readonly user: SignedUpUser;
}

/**
 * Registers the hooks; read `t` and `user` from a test or a later hook (for example
 * `beforeAll(() => ({ t, user } = world))`), never at the file's top level.
 */
export function useAppAndUser(options: TestAppOptions = {}): AppAndUser {
  let t: TestApp | undefined;
  let user: SignedUpUser | undefined;
  beforeAll(async () => {
    t = await createTestApp(options);
    user = await signUp(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });
  const ready = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`the test file's ${name} is used before its set-up ran`);
    return value;
  };
  return {
    get t() {
      return ready(t, 'app');
    },
    get user() {
      return ready(user, 'user');
    },
  };
}
