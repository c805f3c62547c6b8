// The events module runs the subscribers it was built with, and only those (issue 17 §2): two
// modules built in one process (two apps, or the API and the runs thread) do not reach each
// other's subscribers, and the event row commits or rolls back with the caller's change.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildEventsModule, type RecordedEvent } from '../../../src/modules/events/index.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { signUp } from '../../helpers/users.js';

let t: TestApp;
let userId: number;
beforeAll(async () => {
  t = await createTestApp();
  userId = (await signUp(t.app)).id;
});
afterAll(async () => {
  await t?.close();
});

function recorder(answer: number) {
  const seen: RecordedEvent[] = [];
  return { seen, subscriber: async (_trx: unknown, event: RecordedEvent) => (seen.push(event), answer) };
}

const event = (name: string) => ({ userId, type: `custom.${name}` as const, data: { name }, deviceId: null, at: t.clock.now() });

describe('buildEventsModule', () => {
  test('an emit runs its own subscribers in order and adds up their deliveries; another module built in the same process sees nothing', async () => {
    const first = recorder(2);
    const second = recorder(1);
    const other = recorder(5);
    const events = buildEventsModule({ subscribers: [first.subscriber, second.subscriber] });
    buildEventsModule({ subscribers: [other.subscriber] });

    const result = await t.db.kysely.transaction().execute((trx) => events.services.emit(trx, event('one')));

    expect(result.deliveries).toBe(3);
    expect(result.eventId).toMatch(/^evt_[0-9a-f]{24}$/);
    expect(first.seen).toEqual([expect.objectContaining({ eventId: result.eventId, userId, type: 'custom.one', deviceId: null })]);
    expect(second.seen.map((e) => e.eventId)).toEqual([result.eventId]);
    expect(other.seen).toEqual([]);
    const row = await t.db.kysely.selectFrom('events').selectAll().where('event_id', '=', result.eventId).executeTakeFirstOrThrow();
    expect(row.id).toBe(first.seen[0].pk);
    expect(JSON.parse(row.payload)).toEqual({ id: result.eventId, type: 'custom.one', timestamp: new Date(t.clock.now()).toISOString(), data: { name: 'one' } });
  });

  test('the event rolls back with the transaction it was recorded in', async () => {
    const { subscriber } = recorder(0);
    const events = buildEventsModule({ subscribers: [subscriber] });
    let eventId = '';
    await expect(
      t.db.kysely.transaction().execute(async (trx) => {
        eventId = (await events.services.emit(trx, event('undone'))).eventId;
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(eventId).not.toBe('');
    expect(await t.db.kysely.selectFrom('events').select('id').where('event_id', '=', eventId).executeTakeFirst()).toBeUndefined();
  });
});
