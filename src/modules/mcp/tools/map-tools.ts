// map_get (scope maps:read, decisions.md §12): the learned menu map of an app, or an empty map
// with a message saying none was learned yet, so a client can plan without a round of errors.
import { Type } from 'typebox';
import { Nullable } from '../../../core/schema.js';
import { MapsToolSchemas, type MapsService } from '../../maps/index.js';
import { registerScopedTool, type ToolCatalog } from '../tool-catalog.js';

export function registerMapTools(catalog: ToolCatalog, maps: Pick<MapsService, 'find'>): void {
  registerScopedTool(catalog, {
    name: 'map_get',
    scope: 'maps:read',
    title: 'Read the menu map of an app',
    description:
      "The learned menu map of an app on your cloud devices: its screens (screen_id, title, activity, element_count, and the path of taps from the app's start that reaches each) and the transitions between them (a tap on an element, or BACK). Use it to plan how to reach a screen before driving the device. When no map was learned yet, the answer has no screens and a message saying how to learn one.",
    input: Type.Object({ package: MapsToolSchemas.PackageName }, { additionalProperties: false }),
    output: Type.Object({
      package: Type.String(),
      screens: Type.Array(MapsToolSchemas.MapScreen),
      transitions: Type.Array(MapsToolSchemas.MapTransition),
      updated_at: Nullable(Type.String({ format: 'date-time' })),
      message: Type.Optional(Type.String()),
    }),
    annotations: { readOnlyHint: true },
    async run(ctx, input) {
      const map = await maps.find(ctx, input.package);
      if (map) return { data: map };
      return {
        data: {
          package: input.package,
          screens: [],
          transitions: [],
          updated_at: null,
          message: `No menu map of ${input.package} was learned yet. Explore the app from the console (Menu maps, or POST /api/maps/explorations with a cloud device) and ask again when it is done.`,
        },
      };
    },
  });
}
