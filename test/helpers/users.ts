// Shortcuts through the public routes: sign up, create keys, call with a key.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

export interface SignedUpUser {
  id: number;
  email: string;
  token: string;
  auth: { authorization: string };
}

export async function signUp(app: FastifyInstance, email = `user-${randomBytes(4).toString('hex')}@example.com`): Promise<SignedUpUser> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email, password: 'correct horse battery' } });
  expect(res.statusCode, res.body).toBe(201);
  const body = res.json();
  return { id: body.user.id, email, token: body.session.token, auth: { authorization: `Bearer ${body.session.token}` } };
}

export async function createKey(
  app: FastifyInstance,
  user: SignedUpUser,
  body: { name?: string; scopes?: string[]; expires_in?: string } = {},
): Promise<{ key: string; id: number }> {
  const res = await app.inject({ method: 'POST', url: '/api/api-keys', headers: user.auth, payload: { name: 'test key', ...body } });
  expect(res.statusCode, res.body).toBe(201);
  return { key: res.json().key, id: res.json().api_key.id };
}

export const withKey = (key: string) => ({ 'x-api-key': key });

/** A fresh session for an existing user (the password signUp uses). */
export async function signIn(app: FastifyInstance, user: SignedUpUser): Promise<SignedUpUser> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: 'correct horse battery' } });
  expect(res.statusCode, res.body).toBe(200);
  const token = res.json().session.token;
  return { ...user, token, auth: { authorization: `Bearer ${token}` } };
}
