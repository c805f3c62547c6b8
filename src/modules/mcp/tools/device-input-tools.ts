// The device tools that drive a leased device (scope devices:control): every entry of the
// devices module's action catalogue (decisions.md §16), served as it is. This file adds only
// the tool server's framing: the `lease_id` argument (someone else's or an ended lease is not
// found), and the answer as structured data, a sentence, or the screenshot's picture.
import { Type } from 'typebox';
import { type ActionAnswer, type CatalogueEntry, DEVICE_CATALOGUE, type DeviceVision, type LeaseService } from '../../devices/index.js';
import { registerScopedTool, type ToolCatalog } from '../tool-catalog.js';
import type { ToolOutput } from '../tool-result.js';
import { LeaseId } from './schemas.js';

function toolOutput(entry: CatalogueEntry, answer: ActionAnswer): ToolOutput {
  if (answer.image) return { content: [{ type: 'text', text: answer.image.caption }, { type: 'image', data: answer.image.base64, mimeType: answer.image.mimeType }] };
  if (entry.output && answer.data) return { data: answer.data };
  return { content: [{ type: 'text', text: answer.text }] };
}

export function registerDeviceInputTools(catalog: ToolCatalog, leases: LeaseService, vision: DeviceVision): void {
  for (const entry of DEVICE_CATALOGUE) {
    registerScopedTool(catalog, {
      name: entry.name,
      scope: 'devices:control',
      title: entry.title,
      description: entry.description,
      input: Type.Object({ lease_id: LeaseId, ...entry.input.properties }, { additionalProperties: false }),
      ...(entry.output ? { output: entry.output } : {}),
      annotations: entry.readOnly ? { readOnlyHint: true } : entry.destructive ? { destructiveHint: true } : {},
      async run(ctx, input) {
        const { lease_id, ...args } = input as { lease_id: string } & Record<string, unknown>;
        const { driver } = await leases.resolve(ctx, { lease_id });
        return toolOutput(entry, await entry.run({ driver, owner: { userId: ctx.userId }, vision }, args as never));
      },
    });
  }
}
