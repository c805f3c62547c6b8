// The session's device lease. It is held with no key, so a tool client's key can neither
// extend it nor drive the device through it.
import type { ServiceContext } from '../../core/context.js';
import type { AuthoringPorts } from './ports.js';

export const sessionHolder = (ctx: Pick<ServiceContext, 'userId'>) => ({ userId: ctx.userId, keyId: null });

/** Ends the session's lease; a lease already gone is fine. */
export async function releaseSessionLease(ports: Pick<AuthoringPorts, 'leases'>, ctx: Pick<ServiceContext, 'userId'>, leaseId: string): Promise<void> {
  await ports.leases.release(sessionHolder(ctx), { lease_id: leaseId }).catch(() => undefined);
}
