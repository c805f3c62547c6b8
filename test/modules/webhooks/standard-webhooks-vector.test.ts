// Our webhook signer against the Standard Webhooks maintainers' own material: the specification's
// published test vector (the one svix's own suite signs in node_modules/svix/src/webhook.test.ts)
// signed by `signature()`, and our signatures, for random secrets, ids, timestamps and bodies,
// verified by the reference libraries `standardwebhooks` and `svix`. A signature they refuse, or
// one they accept for a changed body, fails here before a customer's verifier meets it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { describe, expect, test } from 'vitest';
import { newSigningSecret, signature } from '../../../src/modules/webhooks/rules.js';

/** The specification's example (standard-webhooks spec, "Signature scheme"), also in svix's suite. */
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  payload: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

const headersOf = (id: string, timestamp: number, sig: string) => ({ 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': sig });

describe('the published test vector', () => {
  test('is the one the maintainers sign in their own suite', () => {
    const suite = readFileSync(join(dirname(createRequire(import.meta.url).resolve('svix')), '..', 'src', 'webhook.test.ts'), 'utf8');
    for (const value of [VECTOR.secret, VECTOR.id, String(VECTOR.timestamp), VECTOR.payload, VECTOR.signature]) expect(suite).toContain(value);
  });

  test('our signer produces its signature, and both reference libraries agree', () => {
    expect(signature(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.payload)).toBe(VECTOR.signature);
    expect(new StandardWebhook(VECTOR.secret).sign(VECTOR.id, new Date(VECTOR.timestamp * 1000), VECTOR.payload)).toBe(VECTOR.signature);
    expect(new SvixWebhook(VECTOR.secret).sign(VECTOR.id, new Date(VECTOR.timestamp * 1000), VECTOR.payload)).toBe(VECTOR.signature);
  });
});

describe('our signatures, verified by the reference libraries', () => {
  // Random secrets of our own shape, ids and bodies;
  // the timestamp is now, as the libraries refuse one more than five minutes away.
  const cases = fc.record({
    id: fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
    // Our bodies are JSON (the libraries parse what they verify); any JSON, non-ASCII text included.
    body: fc.jsonValue({ stringUnit: 'grapheme', maxDepth: 3 }).map((value) => JSON.stringify(value)),
  });

  test('standardwebhooks and svix accept every one, and refuse it for a changed body', () => {
    fc.assert(
      fc.property(cases, ({ id, body }) => {
        const secret = newSigningSecret();
        const timestamp = Math.floor(Date.now() / 1000);
        const headers = headersOf(id, timestamp, signature(secret, id, timestamp, body));
        expect(() => new StandardWebhook(secret).verify(body, headers)).not.toThrow();
        expect(() => new SvixWebhook(secret).verify(body, headers)).not.toThrow();
        expect(() => new StandardWebhook(secret).verify(`${body} `, headers)).toThrow();
        expect(() => new SvixWebhook(secret).verify(`${body} `, headers)).toThrow();
      }),
      { numRuns: 200 },
    );
  });

  test('a signature made with another secret is refused by both', () => {
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = headersOf('msg_1', timestamp, signature(newSigningSecret(), 'msg_1', timestamp, '{}'));
    const secret = newSigningSecret();
    expect(() => new StandardWebhook(secret).verify('{}', headers)).toThrow();
    expect(() => new SvixWebhook(secret).verify('{}', headers)).toThrow();
  });
});
