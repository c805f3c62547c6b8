// Liveness, readiness and Prometheus metrics.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, dropStorage, type TestApp } from '../../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('operations', () => {
  test('/healthz answers while the process is up', async () => {
    const res = await t.app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(200);
    // The vision engines load on first use: OCR has not been used by this app. The matching
    // pool is the worker process's, which other test files may have used already.
    expect(res.json()).toEqual({ status: 'ok', engines: { ocr: 'idle', template_matching: expect.stringMatching(/^(idle|loading|ready)$/) } });
  });

  test('/readyz answers when the database answers and migrations are applied', async () => {
    const res = await t.app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', checks: { database: 'up', redis: t.redis ? 'up' : 'not_configured' } });
  });

  test('/readyz answers 503 when the database is gone', async () => {
    const broken = await createTestApp();
    await broken.db.close();
    try {
      const res = await broken.app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json().details.code).toBe('not_ready');
    } finally {
      await broken.app.close();
      await broken.redis?.quit();
      await dropStorage(broken.storage);
    }
  });

  test('/metrics counts requests by route and status, with latency histograms', async () => {
    await t.app.inject({ url: '/healthz' });
    await t.app.inject({ url: '/api/whoami' });
    await t.app.inject({ url: '/no/such/route/123' });
    const res = await t.app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toMatch(/http_requests_total\{method="GET",route="\/healthz",status="200"\} \d+/);
    expect(res.body).toMatch(/http_requests_total\{method="GET",route="\/api\/whoami",status="401"\} 1/);
    expect(res.body).toMatch(/route="unmatched",status="404"/);
    expect(res.body).not.toContain('/no/such/route/123');
    expect(res.body).toMatch(/http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/healthz",status="200"\}/);
  });
});
