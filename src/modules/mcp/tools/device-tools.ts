// Device tools (scope devices:control), decisions.md §9 and §12. device_list reads the
// caller's cloud devices and their lease holders through the devices services; the others go
// through a lease (the devices module's lease service): device_lease hands out a lease_id,
// every other tool takes it and drives the device through the host's DeviceDriver, which
// works from any process.
import { Type } from 'typebox';
import { LEASE_MINUTES, type LeaseService } from '../../devices/index.js';
import { registerScopedTool, type ToolCatalog } from '../tool-catalog.js';
import type { ToolDeps } from './deps.js';
import { registerDeviceInputTools } from './device-input-tools.js';
import { CloudDeviceItem, DeviceId, LeaseId } from './schemas.js';

const PAGE_SIZE = 200;

export function registerDeviceTools(catalog: ToolCatalog, deps: ToolDeps): void {
  registerScopedTool(catalog, {
    name: 'device_list',
    scope: 'devices:control',
    title: 'List cloud devices',
    description: 'Your cloud devices (the REST device record) with their hosted_state (stopped, placing, starting, ready, stopping, error) and lease_holder: self when this key holds a lease, other when someone else does, absent when free.',
    input: Type.Object({}, { additionalProperties: false }),
    output: Type.Object({ items: Type.Array(CloudDeviceItem) }),
    annotations: { readOnlyHint: true },
    async run(ctx) {
      const devices = [];
      for (let page = 1; ; page += 1) {
        const answer = await deps.devices.list(ctx, { page, page_size: PAGE_SIZE });
        devices.push(...answer.rows.filter((d) => d.is_hosted));
        if (answer.rows.length < PAGE_SIZE) break;
      }
      const holders = await deps.leases.holders(ctx, { device_ids: devices.map((d) => d.id) });
      const items = devices.map((d) => (holders.has(d.id) ? { ...d, lease_holder: holders.get(d.id) } : d));
      return { data: { items } };
    },
  });

  registerLeaseTools(catalog, deps.leases);
  registerDeviceInputTools(catalog, deps.leases, deps.screen);
}

function registerLeaseTools(catalog: ToolCatalog, leases: LeaseService): void {
  registerScopedTool(catalog, {
    name: 'device_lease',
    scope: 'devices:control',
    title: 'Lease a cloud device',
    description:
      'Gives you one of your cloud devices for some minutes (1 to 120, default 15), starting it if it is stopped and waiting until it is ready. Leasing it again before expiry extends the same lease. Pass the lease_id to the other device tools; a device with a run or another lease answers device_busy.',
    input: Type.Object(
      { device_id: DeviceId, minutes: Type.Optional(Type.Integer({ minimum: LEASE_MINUTES.min, maximum: LEASE_MINUTES.max, default: LEASE_MINUTES.default, description: '1 to 120, default 15' })) },
      { additionalProperties: false },
    ),
    output: Type.Object({ lease_id: Type.String(), device_id: Type.Integer(), expires_at: Type.String({ format: 'date-time' }) }),
    annotations: { destructiveHint: false, idempotentHint: true },
    async run(ctx, input) {
      const lease = await leases.lease(ctx, { device_id: input.device_id, minutes: input.minutes ?? LEASE_MINUTES.default });
      return { data: { lease_id: lease.lease_id, device_id: lease.device_id, expires_at: lease.expires_at } };
    },
  });

  registerScopedTool(catalog, {
    name: 'device_release',
    scope: 'devices:control',
    title: 'Release a device',
    description: 'Ends your lease, so the device is free for runs and other clients. The device stays started.',
    input: Type.Object({ lease_id: LeaseId }, { additionalProperties: false }),
    annotations: { destructiveHint: false, idempotentHint: false },
    async run(ctx, input) {
      await leases.release(ctx, input);
      return { content: [{ type: 'text', text: `Released ${input.lease_id}.` }] };
    },
  });

}

