// The tool catalogue and its one registration helper. Every tool declares its scope where it
// is registered (`registerScopedTool`), so no tool can forget it: tools/list shows a caller
// only the tools its key's (or token's) scopes allow, and a call to any other answers an
// error result naming the missing scope. Input and output schemas are TypeBox, the same
// source the REST routes use; they are compiled once and described once, so tools/list
// costs a filter and tools/call one Ajv check.
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { Static, TObject, TSchema } from 'typebox';
import type { Scope, ServiceContext } from '../../core/context.js';
import { toFieldErrors } from '../../lib/ajv-field-errors.js';
import { onFirstUse, type Validator, validatorOnFirstUse } from '../../lib/on-first-use.js';
import { keyCovers } from '../api-keys/index.js';
import { appErrorResult, toolError, toolResult, type ToolOutput } from './tool-result.js';

export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ScopedTool<Input extends TObject> {
  name: string;
  scope: Scope;
  title: string;
  /** What it does and when to use it: the model reads this to choose the tool. */
  description: string;
  input: Input;
  /** Declared when the tool returns data, which then goes out as `structuredContent`. */
  output?: TObject;
  annotations?: ToolAnnotations;
  run(ctx: ServiceContext, input: Static<Input>): Promise<ToolOutput>;
}

interface Registered {
  scope: Scope;
  descriptor: Tool;
  check: Validator<ErrorObject>;
  run(ctx: ServiceContext, input: unknown): Promise<ToolOutput>;
}

export interface ToolLog {
  error(object: object, message: string): void;
}

// Arguments arrive as JSON: no coercion, defaults filled in, every mistake reported at once.
const ajv = onFirstUse(() => {
  const made = new Ajv({ allErrors: true, strict: false, useDefaults: true, coerceTypes: false });
  addFormats.default(made);
  return made;
});

/**
 * A TypeBox schema as plain JSON Schema for tools/list. `$id`s are dropped: a client
 * compiles every output schema into one validator, and two tools sharing a record (the
 * macro in macro_list and macro_get) would otherwise declare the same id twice.
 */
function describedSchema(schema: TSchema): Tool['inputSchema'] {
  return JSON.parse(JSON.stringify(schema, (key, value: unknown) => (key === '$id' ? undefined : value))) as Tool['inputSchema'];
}

export class ToolCatalog {
  private readonly tools = new Map<string, Registered>();

  constructor(private readonly log: ToolLog) {}

  add<Input extends TObject>(tool: ScopedTool<Input>): void {
    if (this.tools.has(tool.name)) throw new Error(`tool ${tool.name} is registered twice`);
    const descriptor: Tool = {
      name: tool.name,
      title: tool.title,
      description: `${tool.description} (Scope: ${tool.scope}.)`,
      inputSchema: describedSchema(tool.input),
      ...(tool.output ? { outputSchema: describedSchema(tool.output) as Tool['outputSchema'] } : {}),
      annotations: { title: tool.title, ...tool.annotations },
    };
    this.tools.set(tool.name, { scope: tool.scope, descriptor, check: validatorOnFirstUse<ErrorObject>(() => ajv().compile(tool.input)), run: tool.run as Registered['run'] });
  }

  /** The tools these scopes allow (empty scopes: full access), in registration order. */
  visibleTo(scopes: readonly Scope[]): Tool[] {
    return [...this.tools.values()].filter((tool) => keyCovers(scopes, tool.scope)).map((tool) => tool.descriptor);
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  /** Runs a tool for the caller. Never throws: every failure is an error result. */
  async call(ctx: ServiceContext, name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
    const tool = this.tools.get(name);
    if (!tool) return toolError('not_found', `There is no tool named ${JSON.stringify(name.slice(0, 100))}. List the tools to see the names.`);
    if (!keyCovers(ctx.scopes, tool.scope)) {
      return toolError('insufficient_scope', `The tool ${name} needs the scope ${tool.scope}, which this key (or token) does not have. Use a key created with ${tool.scope}.`);
    }
    // Ajv fills defaults in place: validate a copy, never the caller's object.
    const input: unknown = structuredClone(args ?? {});
    if (!tool.check(input)) {
      const errors = toFieldErrors((tool.check.errors ?? []).slice(0, 5), 'arguments');
      return toolError('validation_failed', `The arguments are not valid: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}.`);
    }
    try {
      return toolResult(await tool.run(ctx, input));
    } catch (error) {
      const result = appErrorResult(error);
      if (result) return result;
      this.log.error({ err: error, tool: name, requestId: ctx.requestId }, 'tool failed');
      return toolError('internal_error', 'Something failed on the server while running this tool. It was logged; try again, and report it if it keeps failing.');
    }
  }
}

/** The one way a tool joins the catalogue: with its scope, next to its name. */
export function registerScopedTool<Input extends TObject>(catalog: ToolCatalog, tool: ScopedTool<Input>): void {
  catalog.add(tool);
}
