// The agent's own tools as the model sees them (decisions.md §13): exactly these names, each
// a function tool whose parameters are JSON Schema. The same schemas check the model's
// arguments before a tool runs, so a bad call comes back to the model as an error it can read.
import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import { type TObject, Type } from 'typebox';

const Coordinate = (description: string) => Type.Integer({ minimum: 0, maximum: 100_000, description });
const Point = Type.Object({ x: Coordinate('Device pixels from the left'), y: Coordinate('Device pixels from the top') }, { additionalProperties: false });
const Package = Type.String({ minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9_.]+$', description: 'The Android package name, for example com.example.shop' });
const none = Type.Object({}, { additionalProperties: false });

export const AGENT_TOOLS = {
  device_screenshot: { description: "The device's screen now, as an image (its size is given in device pixels).", parameters: none },
  device_ui_tree: {
    description: 'The UI elements on screen: element_id, text, resource_id, content_desc, class, clickable, bounds and center in device pixels. The cheapest way to see what is on screen.',
    parameters: none,
  },
  device_read_text: {
    description: 'The lines of text on screen with their bounds, optionally only inside a region.',
    parameters: Type.Object(
      { region: Type.Optional(Type.Object({ left: Coordinate('left'), top: Coordinate('top'), right: Coordinate('right'), bottom: Coordinate('bottom') }, { additionalProperties: false })) },
      { additionalProperties: false },
    ),
  },
  device_tap: {
    description: 'Taps the screen: at x, y (device pixels), on an element_id from device_ui_tree, or on the element showing a text. Answers the element hit.',
    parameters: Type.Object(
      {
        x: Type.Optional(Coordinate('Device pixels from the left (with y)')),
        y: Type.Optional(Coordinate('Device pixels from the top (with x)')),
        element_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        text: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Exact text first, else the first element containing it (ignoring case)' })),
      },
      { additionalProperties: false },
    ),
  },
  device_swipe: {
    description: 'Swipes from one point to another over ms milliseconds (default 300).',
    parameters: Type.Object({ from: Point, to: Point, ms: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })) }, { additionalProperties: false }),
  },
  device_type: {
    description: 'Types text into the focused field; submit presses ENTER afterwards.',
    parameters: Type.Object({ text: Type.String({ maxLength: 2000 }), submit: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
  },
  device_key: {
    description: 'Presses an Android key: BACK, HOME, ENTER, APP_SWITCH, DEL, …',
    parameters: Type.Object({ key: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_]+$' }) }, { additionalProperties: false }),
  },
  app_open: { description: 'Opens an app (its last screen if it was running).', parameters: Type.Object({ package: Package }, { additionalProperties: false }) },
  app_close: { description: 'Force-stops an app.', parameters: Type.Object({ package: Package }, { additionalProperties: false }) },
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

export type AgentToolName = keyof typeof AGENT_TOOLS;
export const AGENT_TOOL_NAMES = Object.keys(AGENT_TOOLS) as AgentToolName[];

export const isAgentTool = (name: string): name is AgentToolName => Object.hasOwn(AGENT_TOOLS, name);

/** The tools in the chat-completions request: plain JSON Schema, no TypeBox markers. */
export function toolDefinitions(): ChatCompletionFunctionTool[] {
  return AGENT_TOOL_NAMES.map((name) => ({
    type: 'function',
    function: { name, description: AGENT_TOOLS[name].description, parameters: JSON.parse(JSON.stringify(AGENT_TOOLS[name].parameters)) as Record<string, unknown> },
  }));
}
