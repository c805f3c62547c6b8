// Sign-up, sign-in, sign-out and the current user. Sign-up and sign-in are limited per
// client address against password guessing.
import { serialize } from 'cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimitedError } from '../../core/errors.js';
import { type FixedWindowLimiter, rateLimitHeaders } from '../../lib/rate-limit.js';
import { contextOf, originOf } from '../../http/request-context.js';
import { publicRoute, sessionRoute } from '../../http/route-auth.js';
import { errors } from '../../core/schema.js';
import type { Clock } from '../../lib/clock.js';
import { LoginBody, Me, SignedIn, SignupBody } from './schemas.js';
import type { AccountService } from './service.js';
import { type IssuedSession, SESSION_COOKIE, SESSION_DAYS } from './sessions.js';

export interface AccountRouteDeps {
  accounts: AccountService;
  clock: Clock;
  signInLimiter: FixedWindowLimiter;
  secureCookies: boolean;
}

export function accountRoutes(deps: AccountRouteDeps): FastifyPluginAsyncTypebox {
  const sessionCookie = (value: string, maxAgeSeconds: number) =>
    serialize(SESSION_COOKIE, value, { httpOnly: true, sameSite: 'lax', secure: deps.secureCookies, path: '/', maxAge: maxAgeSeconds });

  const setSessionCookie = (reply: FastifyReply, session: IssuedSession) =>
    reply.header('set-cookie', sessionCookie(session.token, SESSION_DAYS * 86_400));

  async function limitByAddress(request: FastifyRequest): Promise<void> {
    const result = await deps.signInLimiter.hit(request.ip);
    if (!result.allowed) {
      throw new RateLimitedError('Too many sign-up or sign-in attempts from this address. Wait for the time in Retry-After.', rateLimitHeaders(result, 'ip', deps.clock.now()));
    }
  }

  return async (app) => {
    app.post(
      '/api/auth/signup',
      {
        config: publicRoute(),
        onRequest: limitByAddress,
        schema: {
          operationId: 'signUp',
          description: 'Creates an account with a 14-day trial and signs it in: the answer carries the user, a new session token (shown once) and the subscription, and sets the `session` cookie. 409 `email_taken` when the email already has an account; limited per client address (429).',
          tags: ['accounts'],
          summary: 'Create an account (starts a 14-day trial) and sign in',
          body: SignupBody,
          response: { 201: SignedIn, ...errors(400, 409, 422, 429) },
        },
      },
      async (request, reply) => {
        const result = await deps.accounts.signup(originOf(request), request.body);
        setSessionCookie(reply, result.session);
        return reply.code(201).send(result);
      },
    );

    app.post(
      '/api/auth/login',
      {
        config: publicRoute(),
        onRequest: limitByAddress,
        schema: {
          operationId: 'signIn',
          description: 'Checks the email and password and opens a 30-day session: the answer carries the session token (shown once) and sets the `session` cookie. A wrong password and an unknown email get the same 401 `invalid_credentials`; limited per client address (429).',
          tags: ['accounts'],
          summary: 'Sign in',
          body: LoginBody,
          response: { 200: SignedIn, ...errors(400, 401, 422, 429) },
        },
      },
      async (request, reply) => {
        const result = await deps.accounts.login(originOf(request), request.body);
        setSessionCookie(reply, result.session);
        return result;
      },
    );

    app.post(
      '/api/auth/logout',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'signOut',
          description: 'Ends the session that made the request, at once, and clears the `session` cookie. Other sessions of the same user stay signed in.',
          tags: ['accounts'],
          summary: 'Sign out; the session stops working at once',
          response: { 204: { type: 'null' }, ...errors(401) },
        },
      },
      async (request, reply) => {
        await deps.accounts.logout(contextOf(request));
        return reply.code(204).header('set-cookie', sessionCookie('', 0)).send(null);
      },
    );

    app.get(
      '/api/auth/me',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'getCurrentUser',
          description: 'The signed-in user (id, email, name, creation time) and the state of their subscription or trial.',
          tags: ['accounts'],
          summary: 'The signed-in user and subscription',
          response: { 200: Me, ...errors(401) },
        },
      },
      async (request) => deps.accounts.me(contextOf(request)),
    );
  };
}
