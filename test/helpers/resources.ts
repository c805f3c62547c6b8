// Creating a user's resources through the application routes.
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { SignedUpUser } from './users.js';

async function post(app: FastifyInstance, user: SignedUpUser, url: string, payload: object) {
  const res = await app.inject({ method: 'POST', url, headers: user.auth, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export const createMacro = (app: FastifyInstance, user: SignedUpUser, payload: { name?: string; kind?: 'python' | 'block'; description?: string } = {}) =>
  post(app, user, '/api/macros', { name: 'My macro', kind: 'python', ...payload });

export const createGroup = (app: FastifyInstance, user: SignedUpUser, payload: { name?: string; kind?: 'byod' | 'cloud'; description?: string } = {}) =>
  post(app, user, '/api/emulator/groups', { name: 'My group', kind: 'byod', ...payload });

export const createDevice = (app: FastifyInstance, user: SignedUpUser, payload: { name?: string; port?: number; group_id?: number } = {}) =>
  post(app, user, '/api/emulator/devices', { name: 'Pixel', port: 5555, ...payload });

export const createCloudDevice = (app: FastifyInstance, user: SignedUpUser, payload: { name?: string; group_id?: number } = {}) =>
  post(app, user, '/api/hosted/devices', { name: 'Cloud phone', ...payload });

export async function updateDevice(app: FastifyInstance, user: SignedUpUser, id: number, payload: object) {
  return app.inject({ method: 'PUT', url: `/api/emulator/devices/${id}`, headers: user.auth, payload });
}
