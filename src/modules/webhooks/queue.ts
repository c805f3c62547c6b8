// Writes on the deliveries queue that more than one path needs.
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';

/** An endpoint that is disabled or deleted receives nothing more: its pending deliveries end as failed. */
export async function failPendingDeliveries(trx: Transaction<Database>, endpointId: number, reason: string, now: number): Promise<void> {
  await trx
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', next_attempt_at: null, last_error: reason, updated_at: now })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .execute();
}
