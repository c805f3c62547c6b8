// The agent loop of one claimed session (decisions.md §13): before each model call the
// limits (steps, working time, credits); then the call; then each tool call in order, each
// result kept in the chat and as a message. It ends the session done (finish), waiting
// (ask_user), failed (a limit, three endpoint failures in a row, no device) or lets go when
// the session was stopped or its claim lost. The chat is saved after every step, so any
// worker can take the session up again after a question.
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { AuthoringSettings } from '../settings.js';
import { workerContext } from '../../../core/context.js';
import { AppError } from '../../../core/errors.js';
import type { Db } from '../../../db/database.js';
import type { JobLog, RunningJob } from '../../../db/jobs/worker.js';
import type { Clock } from '../../../lib/clock.js';
import { messageOf } from '../../../lib/error-message.js';
import type { CreditLedger } from '../credits.js';
import { CreditsExhaustedError } from '../errors.js';
import type { AgentCaller, AuthoringPorts } from '../ports.js';
import { releaseSessionLease, sessionHolder } from '../session-lease.js';
import type { AuthoringSessionJob } from '../session-job.js';
import { type ChatMessage, parseConversation, withScreenshot } from './conversation.js';
import type { ModelClient } from './model.js';
import { parseFiles } from '../present.js';
import type { ProjectFile } from './project-files.js';
import { KEEP_GOING, systemPrompt } from './prompt.js';
import { redactSecrets } from './redact.js';
import { askUser, endDone, endFailed, recordReply, type WriteScope, writeStep } from './session-writes.js';
import { checkedArguments, runTool, type ToolScene } from './tool-runner.js';
import { toolDefinitions } from './tool-schemas.js';

export const MODEL_FAILURES_ALLOWED = 3;

export interface AgentDeps {
  db: Db;
  clock: Clock;
  settings: AuthoringSettings;
  credits: CreditLedger;
  ports: AuthoringPorts;
  model: ModelClient;
  kind: AuthoringSessionJob;
  log: JobLog;
}

/** The session's owner, as the agent acts for them (no key: the session's lease is held keyless). */
export const agentCaller = (userId: number, sessionId: number): AgentCaller => workerContext(userId, `authoring-${sessionId}`);

export async function runSession(deps: AgentDeps, job: RunningJob<{ id: number; user_id: number }>): Promise<void> {
  const { db, clock, settings, ports } = deps;
  const session = await db.kysely.selectFrom('authoring_sessions').selectAll().where('id', '=', job.lease.id).where('locked_by', '=', job.lease.token).executeTakeFirst();
  if (!session || session.state !== 'working') return;
  const scope: WriteScope = { db, clock, kind: deps.kind, lease: job.lease };
  const ctx = agentCaller(Number(session.user_id), Number(session.id));
  const claimedAt = clock.now();
  const worked = () => Number(session.worked_ms) + (clock.now() - claimedAt);
  const known = settings.llmApiKey ? [settings.llmApiKey] : [];
  let leaseId = session.lease_id;

  const deviceId = session.device_id === null ? null : Number(session.device_id);
  if (deviceId !== null) {
    try {
      // Leasing again extends the session's own lease; the device is started if it stopped.
      leaseId = (await ports.leases.lease(sessionHolder(ctx), { device_id: deviceId, minutes: Math.min(120, settings.maxMinutes + 10) }, { signal: job.signal })).lease_id;
    } catch (error) {
      if (job.signal.aborted) return;
      const why = error instanceof AppError ? error.message : messageOf(error);
      await endFailed(scope, `The session could not take its device: ${why}`, worked());
      return;
    }
    if (!(await writeStep(scope, { lease_id: leaseId }, []))) return release();
  }

  let files: ProjectFile[] = parseFiles(session.files);
  let chat: ChatMessage[] = parseConversation(session.conversation);
  let steps = Number(session.steps);
  let tokens = Number(session.tokens_used);
  let failures = 0;
  const system: ChatCompletionMessageParam = {
    role: 'system',
    content: systemPrompt({ goal: redactSecrets(session.goal, known), hasDevice: deviceId !== null, mappedPackages: await ports.maps.list(ctx).then(({ items }) => items.map((m) => m.package), () => []), files: files.map((f) => f.path) }),
  };
  if (chat.length === 0) chat.push({ role: 'user', content: 'Begin.' });
  const tools = toolDefinitions();

  async function release(): Promise<void> {
    if (leaseId) await releaseSessionLease(ports, ctx, leaseId);
  }
  async function fail(message: string): Promise<void> {
    if (await endFailed(scope, message, worked())) await release();
  }

  for (;;) {
    if (job.signal.aborted) return;
    if (steps >= settings.maxSteps) return fail(`The session reached its limit of ${settings.maxSteps} model calls (AUTHOR_MAX_STEPS) without finishing.`);
    if (worked() >= settings.maxMinutes * 60_000) return fail(`The session reached its limit of ${settings.maxMinutes} minutes of work (AUTHOR_MAX_MINUTES) without finishing.`);
    try {
      await deps.credits.ensureAvailable(ctx.userId);
    } catch (error) {
      if (error instanceof CreditsExhaustedError) return fail(`credits_exhausted: ${error.message}`);
      throw error;
    }

    let reply;
    try {
      reply = await deps.model.complete([system, ...chat], tools, job.signal);
    } catch (error) {
      if (job.signal.aborted) return;
      failures += 1;
      const why = redactSecrets(messageOf(error), known);
      deps.log.warn({ sessionId: session.id, failures, err: why }, 'the model endpoint failed');
      if (failures >= MODEL_FAILURES_ALLOWED) return fail(`The model endpoint failed ${MODEL_FAILURES_ALLOWED} times in a row; the last error: ${why}`);
      await sleep(500 * failures, undefined, { signal: job.signal }).catch(() => undefined);
      continue;
    }
    failures = 0;
    steps += 1;
    const tokensBefore = tokens;
    tokens += reply.totalTokens;
    const message = reply.message;
    const calls = (message.tool_calls ?? []).filter((c) => c.type === 'function');
    const text = message.content ? redactSecrets(message.content, known) : null;
    chat.push({ role: 'assistant', content: text, ...(calls.length ? { tool_calls: calls } : {}) });
    if (calls.length === 0) chat.push({ role: 'user', content: KEEP_GOING });
    if (!(await recordReply(scope, deps.credits, { userId: ctx.userId, tokensBefore, tokensAfter: tokens, steps, chat, text }))) return;

    const scene: ToolScene = { ctx, ports, sessionId: Number(session.id), deviceId, macroId: session.macro_id === null ? null : Number(session.macro_id), leaseId, files, signal: job.signal };
    let question: { text: string; callId: string } | null = null;
    let finished: string | null = null;
    let shot: { base64: string; caption: string } | null = null;
    for (const call of calls) {
      let content: string;
      let note: string;
      if (question || finished) {
        content = 'Not run: an earlier call in this reply asked the person or finished the session.';
        note = `${call.function.name}: not run`;
      } else {
        const checked = checkedArguments(call.function.name, call.function.arguments);
        const outcome = 'error' in checked ? checked.error : await runTool({ ...scene, files }, call.function.name as never, checked.args);
        if (job.signal.aborted) return;
        if (outcome.files) files = outcome.files;
        if (outcome.screenshot) shot = outcome.screenshot;
        if (outcome.ask) question = { text: redactSecrets(outcome.ask, known), callId: call.id };
        if (outcome.finish !== undefined) finished = redactSecrets(outcome.finish, known);
        content = redactSecrets(outcome.content, known);
        note = `${call.function.name}: ${redactSecrets(outcome.summary, known)}`;
      }
      // The answer to ask_user is this call's result; it is added when the person answers.
      if (question?.callId !== call.id) chat.push({ role: 'tool', tool_call_id: call.id, content });
      if (!(await writeStep(scope, { conversation: JSON.stringify(chat), files: JSON.stringify(files) }, [{ role: 'tool', text: note }]))) return;
    }
    // Not while a question is open: its answer must come right after this reply's tool results.
    if (shot && !question) chat = withScreenshot(chat, shot.base64, shot.caption);
    if (finished !== null) {
      if (await endDone(scope, files, finished, worked(), chat)) await release();
      return;
    }
    if (question) {
      await askUser(scope, question.text, question.callId, worked(), chat, files);
      return;
    }
  }
}
