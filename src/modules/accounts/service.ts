// Sign-up, sign-in and the signed-in user's own record.
import type { Kysely, Selectable } from 'kysely';
import { isUniqueViolation } from '../../db/database.js';
import type { Database, UsersTable } from '../../db/schema.js';
import type { CallOrigin, ServiceContext } from '../../core/context.js';
import { ConflictError, NotFoundError, UnauthorizedError } from '../../core/errors.js';
import { type Clock, toIso } from '../../lib/clock.js';
import { hashPassword, type ScryptParams, verifyPassword } from '../../lib/crypto.js';
import { loadSubscription, openTrial, presentSubscription } from '../billing/index.js';
import type { LoginInput, SignupInput } from './schemas.js';
import { createSession, deleteSession } from './sessions.js';

/** A user as shown: never the password hash. */
export type UserRow = Pick<Selectable<UsersTable>, 'id' | 'email' | 'name' | 'created_at'>;

export function presentUser(user: UserRow) {
  return { id: user.id, email: user.email, name: user.name, created_at: toIso(user.created_at) };
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export class AccountService {
  /** Verified against when the email is unknown, so both failures cost the same time. */
  private dummyHash: Promise<string>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly passwordParams: ScryptParams,
  ) {
    this.dummyHash = hashPassword('not-a-real-password', passwordParams);
  }

  async signup(_origin: CallOrigin, input: SignupInput) {
    const now = this.clock.now();
    const email = normaliseEmail(input.email);
    const passwordHash = await hashPassword(input.password, this.passwordParams);
    try {
      return await this.db.transaction().execute(async (trx) => {
        const user = await trx
          .insertInto('users')
          .values({ email, name: input.name?.trim() || null, password_hash: passwordHash, created_at: now, disabled_at: null })
          .returning(['id', 'email', 'name', 'created_at'])
          .executeTakeFirstOrThrow();
        const subscription = await openTrial(trx, user.id, now);
        const session = await createSession(trx, user.id, now);
        return { user: presentUser(user), session, subscription: presentSubscription(subscription) };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError('email_taken', 'An account with this email already exists. Sign in instead.');
      throw error;
    }
  }

  async login(_origin: CallOrigin, input: LoginInput) {
    const user = await this.db
      .selectFrom('users')
      .select(['id', 'email', 'name', 'created_at', 'password_hash', 'disabled_at'])
      .where('email', '=', normaliseEmail(input.email))
      .executeTakeFirst();
    const valid = await verifyPassword(input.password, user?.password_hash ?? (await this.dummyHash));
    if (!user || !valid || user.disabled_at !== null) {
      throw new UnauthorizedError('invalid_credentials', 'The email or password is not correct.');
    }
    const session = await createSession(this.db, user.id, this.clock.now());
    return { user: presentUser(user), session, subscription: presentSubscription(await loadSubscription(this.db, user.id)) };
  }

  async me(ctx: ServiceContext) {
    const user = await this.db.selectFrom('users').select(['id', 'email', 'name', 'created_at']).where('id', '=', ctx.userId).executeTakeFirst();
    if (!user) throw new NotFoundError('No such user.');
    return { user: presentUser(user), subscription: presentSubscription(await loadSubscription(this.db, ctx.userId)) };
  }

  /** Signs out the session that made the call; it stops working at once. A key caller has none to end. */
  async logout(ctx: ServiceContext): Promise<void> {
    if (ctx.sessionId !== null) await deleteSession(this.db, ctx.sessionId);
  }
}
