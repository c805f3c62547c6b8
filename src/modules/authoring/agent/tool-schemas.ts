// The agent's own tools as the model sees them (decisions.md §13): the device-action catalogue
// (§16, the same entries the tool server serves, without lease_id) and the agent's own tools,
// each a function tool whose parameters are JSON Schema. The same schemas check the model's
// arguments before a tool runs, so a bad call comes back to the model as an error it can read.
import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import { type TObject, Type } from 'typebox';
import { DEVICE_CATALOGUE } from '../../devices/index.js';

const Package = Type.String({ minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9_.]+$', description: 'The Android package name, for example com.example.shop' });
const none = Type.Object({}, { additionalProperties: false });

/** The device tools: every catalogue entry, on the session's device. */
const DEVICE_TOOLS = Object.fromEntries(DEVICE_CATALOGUE.map((entry) => [entry.name, { description: entry.description, parameters: entry.input }]));
export const DEVICE_TOOL_NAMES: ReadonlySet<string> = new Set(Object.keys(DEVICE_TOOLS));

const OWN_TOOLS = {
  map_get: {
    description: "The app's menu map, when one was learned: its screens and the taps that lead from one to another.",
    parameters: Type.Object({ package: Package }, { additionalProperties: false }),
  },
  file_write: {
    description: 'Writes a project file (creating or replacing it). Paths are relative, for example main.py or lib/steps.py. At most 200 files and 1 MiB together.',
    parameters: Type.Object({ path: Type.String({ minLength: 1, maxLength: 200 }), content: Type.String({ maxLength: 1_048_576 }) }, { additionalProperties: false }),
  },
  file_read: { description: 'Reads a project file.', parameters: Type.Object({ path: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }) },
  file_list: { description: 'Lists the project files with their sizes, and the entry file a run would start (null while there is no .py file).', parameters: none },
  run_files: {
    description:
      "Installs the current files as the macro's code and runs it as a real cloud run on the device. The entry is picked as code sync picks it: src/app.py, else the main.py nearest the root, else the first .py file. Waits until the run ends (at most 5 minutes) and answers {state, entry, exit_code, error_message, log_tail}.",
    parameters: Type.Object(
      { args: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), Type.Unknown(), { description: "The macro's arguments (MACRO_ARGS and --name value on the command line)" })) },
      { additionalProperties: false },
    ),
  },
  ask_user: {
    description: 'Asks the person a question when you cannot go on without them (an account, a choice). The session waits; the answer comes back as this call\'s result.',
    parameters: Type.Object({ question: Type.String({ minLength: 1, maxLength: 2000 }) }, { additionalProperties: false }),
  },
  finish: {
    description: 'Ends the session with the current files as the result. Call it once run_files has shown that the macro does what was asked.',
    parameters: Type.Object({ summary: Type.String({ minLength: 1, maxLength: 4000 }) }, { additionalProperties: false }),
  },
} satisfies Record<string, { description: string; parameters: TObject }>;

export const AGENT_TOOLS: Record<string, { description: string; parameters: TObject }> = { ...DEVICE_TOOLS, ...OWN_TOOLS };

export type AgentToolName = string;
export const AGENT_TOOL_NAMES = Object.keys(AGENT_TOOLS) as AgentToolName[];

export const isAgentTool = (name: string): boolean => Object.hasOwn(AGENT_TOOLS, name);

/** The tools in the chat-completions request: plain JSON Schema, no TypeBox markers. */
export function toolDefinitions(): ChatCompletionFunctionTool[] {
  return AGENT_TOOL_NAMES.map((name) => ({
    type: 'function',
    function: { name, description: AGENT_TOOLS[name].description, parameters: JSON.parse(JSON.stringify(AGENT_TOOLS[name].parameters)) as Record<string, unknown> },
  }));
}
