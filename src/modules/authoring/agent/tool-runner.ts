// Runs one tool call of the model (decisions.md §13): an unknown tool or arguments its JSON
// Schema refuses answer the model an error it can read; a tool that fails (a lease gone, a
// device fault, someone else's id) does the same. Nothing here ends the session except
// ask_user and finish, which the loop acts on.
import { Ajv, type ErrorObject } from 'ajv';
import { AppError } from '../../../core/errors.js';
import { messageOf } from '../../../lib/error-message.js';
import { onFirstUse, type Validator, validatorOnFirstUse } from '../../../lib/on-first-use.js';
import type { AgentCaller, AuthoringPorts } from '../ports.js';
import { sessionHolder } from '../session-lease.js';
import { runDeviceTool } from './device-tools.js';
import { entryOf, listing, type ProjectFile, withFile } from './project-files.js';
import { runFiles } from './run-files.js';
import { AGENT_TOOL_NAMES, AGENT_TOOLS, type AgentToolName, DEVICE_TOOL_NAMES, isAgentTool } from './tool-schemas.js';
import { type ToolOutcome, toolError } from './tool-outcome.js';

const ajv = onFirstUse(() => new Ajv({ allErrors: true, strict: false, coerceTypes: false }));
const validators = Object.fromEntries(AGENT_TOOL_NAMES.map((name) => [name, validatorOnFirstUse<ErrorObject>(() => ajv().compile(AGENT_TOOLS[name].parameters))])) as Record<AgentToolName, Validator<ErrorObject>>;

export interface ToolScene {
  ctx: AgentCaller;
  ports: AuthoringPorts;
  sessionId: number;
  deviceId: number | null;
  macroId: number | null;
  leaseId: string | null;
  files: ProjectFile[];
  signal: AbortSignal;
}

/** Parses and checks a call's arguments: the arguments, or the error the model reads. */
export function checkedArguments(name: string, raw: string): { args: Record<string, unknown> } | { error: ToolOutcome } {
  if (!isAgentTool(name)) return { error: toolError(`there is no tool named "${name.slice(0, 80)}". The tools are: ${AGENT_TOOL_NAMES.join(', ')}.`) };
  let args: unknown;
  try {
    args = raw.trim() === '' ? {} : JSON.parse(raw);
  } catch {
    return { error: toolError(`the arguments of ${name} are not valid JSON.`) };
  }
  const validate = validators[name];
  if (!validate(args)) {
    // An unknown key is named, so the model can drop it (a selector's key most of all).
    const problems = (validate.errors ?? [])
      .slice(0, 5)
      .map((e) => (e.keyword === 'additionalProperties' ? `${e.instancePath}/${String(e.params.additionalProperty)} is not an accepted field` : `${e.instancePath || '(arguments)'} ${e.message ?? 'is invalid'}`));
    return { error: toolError(`bad arguments for ${name}: ${problems.join('; ')}.`) };
  }
  return { args: args as Record<string, unknown> };
}

export async function runTool(scene: ToolScene, name: AgentToolName, args: Record<string, unknown>): Promise<ToolOutcome> {
  try {
    return await dispatch(scene, name, args);
  } catch (error) {
    // A tool's failure is the model's to read and work around, never the session's end.
    return toolError(error instanceof AppError ? error.message : `the tool failed: ${messageOf(error)}`);
  }
}

async function dispatch(scene: ToolScene, name: AgentToolName, args: Record<string, unknown>): Promise<ToolOutcome> {
  if (DEVICE_TOOL_NAMES.has(name)) {
    if (scene.deviceId === null || scene.leaseId === null) return toolError('this session has no device; write the script from the goal and ask the person what you need.');
    const { driver } = await scene.ports.leases.resolve(sessionHolder(scene.ctx), { lease_id: scene.leaseId });
    return runDeviceTool(name, args, driver, { userId: scene.ctx.userId }, scene.ports.vision);
  }
  switch (name) {
    case 'map_get': {
      const map = await scene.ports.maps.find(scene.ctx, args.package as string);
      if (map === null) return { content: `No menu map has been learned for ${args.package as string}; look at the screen with device_ui_tree.`, summary: `no map of ${args.package as string}` };
      return { content: JSON.stringify(map), summary: `map of ${args.package as string}` };
    }
    case 'file_write': {
      const next = withFile(scene.files, args.path as string, args.content as string);
      if ('problem' in next) return toolError(`cannot write ${String(args.path).slice(0, 200)}: ${next.problem}.`);
      return { content: `Wrote ${args.path as string}.`, summary: `wrote ${args.path as string} (${Buffer.byteLength(args.content as string, 'utf8')} bytes)`, files: next.files };
    }
    case 'file_read': {
      const file = scene.files.find((f) => f.path === args.path);
      if (!file) return toolError(`no file ${String(args.path).slice(0, 200)}; file_list shows the project.`);
      return { content: file.content, summary: `read ${file.path}` };
    }
    case 'file_list':
      return { content: JSON.stringify({ files: listing(scene.files), entry: entryOf(scene.files) }), summary: `${scene.files.length} files` };
    case 'run_files':
      return runFiles(scene, args.args as Record<string, unknown> | undefined);
    case 'ask_user':
      return { content: '', summary: `asked: ${args.question as string}`, ask: args.question as string };
    case 'finish':
      return { content: 'Finished.', summary: 'finished', finish: args.summary as string };
    default:
      return toolError(`${name} cannot run here.`);
  }
}
