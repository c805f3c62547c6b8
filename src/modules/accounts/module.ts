// Builds the accounts module: sign-up, sign-in, sign-out and the signed-in user.
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import type { FixedWindowLimiter } from '../../lib/rate-limit.js';
import type { ScryptParams } from '../../lib/crypto.js';
import { accountRoutes } from './routes.js';
import { AccountService } from './service.js';

export interface AccountsModuleDeps extends ModuleDeps {
  passwordParams: ScryptParams;
  /** A fixed-window limiter by name and limit (in Redis when configured). */
  limiter: (name: string, limit: number) => FixedWindowLimiter;
}

export interface AccountsServices {
  accounts: AccountService;
}

export function buildAccountsModule(deps: AccountsModuleDeps): BuiltModule<AccountsServices> {
  const { config, db, clock } = deps;
  const accounts = new AccountService(db.kysely, clock, deps.passwordParams);
  return {
    routes: accountRoutes({
      accounts,
      clock,
      // Sign-up and sign-in attempts per client address, against password guessing.
      signInLimiter: deps.limiter('signin', config.authRateLimitPerIp),
      secureCookies: config.baseUrl.startsWith('https:'),
    }),
    services: { accounts },
  };
}
