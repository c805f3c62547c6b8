// Test-only key routes with each kind of scope declaration, so the gate's scope check is
// exercised before the resource routes exist.
import type { FastifyInstance } from 'fastify';
import { fullAccessKeyRoute, keyRoute } from '../../src/http/route-auth.js';

export function addScopedTestRoutes(app: FastifyInstance): void {
  app.get('/api/test/runs', { config: keyRoute('runs:read') }, async () => ({ ok: true }));
  app.get('/api/test/full', { config: fullAccessKeyRoute() }, async () => ({ ok: true }));
}
