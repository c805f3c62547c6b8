// macro_list and macro_get (scope macros:run): the caller's macros as the REST routes present
// them, each code macro with its code state (null when it never synced), so a client knows
// before run_start whether a macro can run.
import { Type } from 'typebox';
import type { ServiceContext } from '../../../core/context.js';
import { AppError } from '../../../core/errors.js';
import { registerScopedTool, type ToolCatalog } from '../tool-catalog.js';
import type { ToolDeps } from './deps.js';
import { MacroId, MacroWithCode } from './schemas.js';

const PAGE_SIZE = 200;

export function registerMacroTools(catalog: ToolCatalog, deps: ToolDeps): void {
  async function withCode(ctx: ServiceContext, macro: { id: number; kind: string }) {
    if (macro.kind !== 'python') return macro;
    try {
      return { ...macro, code: await deps.codeSync.state(ctx, { id: macro.id }) };
    } catch (error) {
      if (error instanceof AppError && error.code === 'code_not_synced') return { ...macro, code: null };
      throw error;
    }
  }

  registerScopedTool(catalog, {
    name: 'macro_list',
    scope: 'macros:run',
    title: 'List macros',
    description: 'Your macros by name (code and block macros), each code macro with its code state (null when its code never synced). Optionally filtered by a case-insensitive part of the name.',
    input: Type.Object({ name: Type.Optional(Type.String({ maxLength: 100, description: 'Case-insensitive substring of the name' })) }, { additionalProperties: false }),
    output: Type.Object({ items: Type.Array(MacroWithCode) }),
    annotations: { readOnlyHint: true },
    async run(ctx, input) {
      const items = [];
      for (let page = 1; ; page += 1) {
        const answer = await deps.macros.list(ctx, { name: input.name, page, page_size: PAGE_SIZE });
        for (const macro of answer.rows) items.push(await withCode(ctx, macro));
        if (answer.rows.length < PAGE_SIZE) break;
      }
      return { data: { items } };
    },
  });

  registerScopedTool(catalog, {
    name: 'macro_get',
    scope: 'macros:run',
    title: 'Read a macro',
    description: "One of your macros: a block macro with its program, a code macro with its code state (null when never synced).",
    input: Type.Object({ macro_id: MacroId }, { additionalProperties: false }),
    output: MacroWithCode,
    annotations: { readOnlyHint: true },
    async run(ctx, input) {
      return { data: await withCode(ctx, await deps.macros.get(ctx, { id: input.macro_id })) };
    },
  });
}
