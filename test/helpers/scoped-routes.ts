// Test-only key routes with each kind of scope declaration, so the gate's scope check is
// exercised before the resource routes exist. Hidden: they are not part of the published description.
import type { FastifyInstance } from 'fastify';
import { fullAccessKeyRoute, keyRoute } from '../../src/http/route-auth.js';

export function addScopedTestRoutes(app: FastifyInstance): void {
  app.get('/api/test/runs', { config: keyRoute('runs:read'), schema: { hide: true } }, async () => ({ ok: true }));
  app.get('/api/test/full', { config: fullAccessKeyRoute(), schema: { hide: true } }, async () => ({ ok: true }));
}
