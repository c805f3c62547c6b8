#!/usr/bin/env node
// The baseline of bench/start.js: a bare Fastify server answering GET /healthz on PORT, HOST.
import Fastify from 'fastify';

const app = Fastify();
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });
