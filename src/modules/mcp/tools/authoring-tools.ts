// The authoring tools (scope macros:author, decisions.md §12): start, follow, answer and stop
// an authoring-agent session on the same service the application's routes call; scaffold a
// runnable project from a template; install files as a code macro's snapshot through code
// sync (zip and worktree hash made here, so every upload check applies). Without a model
// endpoint the session tools answer an error result saying how to configure one.
import { Type } from 'typebox';
import { StringEnum } from '../../../core/schema.js';
import { AuthoringSession, type AuthoringSessionService, MessagesAnswer, ProjectFile, SCAFFOLD_TEMPLATES, scaffoldProject } from '../../authoring/index.js';
import { SnapshotAnswer } from '../../code-sync/index.js';
import { registerScopedTool, type ToolCatalog } from '../tool-catalog.js';
import type { ToolDeps } from './deps.js';
import { DeviceId, MacroId } from './schemas.js';

const SessionId = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'The authoring session id' });
const Cursor = Type.String({ pattern: '^(0|[1-9][0-9]{0,11})$', description: 'The cursor of the previous answer; absent reads from the start' });
const Follow = Type.Object({ ...MessagesAnswer.properties, question: Type.Optional(Type.String({ description: 'What the agent asks, while waiting_for_answer' })) });

export function registerAuthoringTools(catalog: ToolCatalog, deps: ToolDeps & { authoring: AuthoringSessionService }): void {
  const sessions = deps.authoring;
  registerScopedTool(catalog, {
    name: 'authoring_start',
    scope: 'macros:author',
    title: 'Start the authoring agent',
    description:
      'Describe in words what a macro should do; an agent works on the cloud device (if given): it looks, writes a Python project, runs it as real cloud runs, fixes it and finishes with files ready to install. Without macro_id a new code macro named after the goal is created. Spends AI credits (one per 1,000 tokens). Follow it with authoring_follow.',
    input: Type.Object(
      { goal: Type.String({ minLength: 1, maxLength: 4000 }), device_id: Type.Optional(DeviceId), macro_id: Type.Optional(MacroId) },
      { additionalProperties: false },
    ),
    output: AuthoringSession,
    async run(ctx, input) {
      return { data: await sessions.start(ctx, input) };
    },
  });
  registerScopedTool(catalog, {
    name: 'authoring_follow',
    scope: 'macros:author',
    title: 'Follow an authoring session',
    description: "The session's messages after cursor (the agent's replies, each tool call with a short result, questions and answers), its state, and its question while it waits. Pass back the cursor to read only new messages.",
    input: Type.Object({ session_id: SessionId, cursor: Type.Optional(Cursor) }, { additionalProperties: false }),
    output: Follow,
    annotations: { readOnlyHint: true },
    async run(ctx, input) {
      sessions.ensureAvailable();
      const read = await sessions.messages(ctx, { id: input.session_id, ...(input.cursor === undefined ? {} : { cursor: input.cursor }) });
      return { data: { messages: read.messages, cursor: read.cursor, state: read.state, ...(read.question ? { question: read.question } : {}) } };
    },
  });
  registerScopedTool(catalog, {
    name: 'authoring_answer',
    scope: 'macros:author',
    title: "Answer the agent's question",
    description: 'The answer to the question a session asks (state waiting_for_answer); it goes back to work. An error not_waiting when it asked nothing.',
    input: Type.Object({ session_id: SessionId, answer: Type.String({ minLength: 1, maxLength: 4000 }) }, { additionalProperties: false }),
    output: AuthoringSession,
    async run(ctx, input) {
      sessions.ensureAvailable();
      return { data: await sessions.answer(ctx, { id: input.session_id, answer: input.answer }) };
    },
  });
  registerScopedTool(catalog, {
    name: 'authoring_stop',
    scope: 'macros:author',
    title: 'Stop an authoring session',
    description: 'Ends a working or waiting session, stopped at once; an ended session answers as it is.',
    input: Type.Object({ session_id: SessionId }, { additionalProperties: false }),
    output: AuthoringSession,
    annotations: { idempotentHint: true },
    async run(ctx, input) {
      sessions.ensureAvailable();
      return { data: await sessions.stop(ctx, { id: input.session_id }) };
    },
  });
  registerScopedTool(catalog, {
    name: 'macro_scaffold',
    scope: 'macros:author',
    title: 'Scaffold a macro project',
    description:
      'A runnable Python project using svc_device, from a template: blank (opens the app), tap_through (taps texts in order), form_fill (fills a form by element id and sends it). Each runs on the demo app as it is; its targets come from the macro arguments. Install it with macro_install_code.',
    input: Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }), template: Type.Optional(StringEnum(SCAFFOLD_TEMPLATES, { default: 'blank' })) }, { additionalProperties: false }),
    output: Type.Object({ files: Type.Array(ProjectFile) }),
    annotations: { readOnlyHint: true },
    async run(_ctx, input) {
      return { data: scaffoldProject(input.name, input.template) };
    },
  });
  registerScopedTool(catalog, {
    name: 'macro_install_code',
    scope: 'macros:author',
    title: "Install files as a macro's code",
    description:
      "Zips the files, computes their worktree hash and installs them as the code macro's current snapshot (the upload of code sync, with its checks and warnings). entry_path chooses the file a run starts (default: main.py closest to the root).",
    input: Type.Object(
      {
        macro_id: MacroId,
        files: Type.Array(Type.Object({ path: Type.String({ minLength: 1, maxLength: 1024 }), content: Type.String({ maxLength: 5_000_000 }) }, { additionalProperties: false }), { minItems: 1, maxItems: 1000 }),
        entry_path: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
      },
      { additionalProperties: false },
    ),
    output: SnapshotAnswer,
    async run(ctx, input) {
      return { data: await deps.codeSync.installFiles(ctx, input) };
    },
  });
}
