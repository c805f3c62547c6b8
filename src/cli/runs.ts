// `svc runs start|logs|stop|list`: a key holder's runs from a terminal or a shell script, on
// the SDK. `start --follow` prints the log as it arrives and leaves with the run's outcome:
// 0 finished (completed), 1 failed, 2 stopped; 3 when the command itself failed.
import type { CloudRun, SvcClient } from '#svc-client';
import type { LoadedConfig } from '../config.js';
import { CliError } from '../lib/cli-error.js';
import { parseCommand, positiveInteger, runArgs, runRef } from './args.js';
import { COMMAND_FAILED, keyClient, reportingFailures } from './key-client.js';
import { type Output, writeJson, writeJsonLine, writeTable } from './output.js';

const USAGE = `Usage (SVC_API_KEY, SVC_BASE_URL; --json on each for scripts):
  svc runs start --device ID --macro ID [--arg name=value]... [--args-json JSON] [--follow]
  svc runs logs EXECUTION_ID [--follow] [--max-lines N]
  svc runs stop RUN                      (RUN: the cloud run's id or execution_id)
  svc runs list [--status S] [--device ID] [--macro ID] [--since T] [--until T] [--limit N | --all]`;

/** The exit code a followed run leaves with. */
export const OUTCOME_EXIT: Record<'finished' | 'failed' | 'stopped', number> = { finished: 0, failed: 1, stopped: 2 };

async function follow(client: SvcClient, run: CloudRun, json: boolean, output: Output): Promise<number> {
  if (!json) output.err.write(`Run ${run.id} (${run.execution_id}) ${run.state}; following its log (Ctrl-C stops following, not the run).\n`);
  for await (const line of client.followLogs(run.execution_id)) {
    if (json) writeJsonLine(output, { type: 'log', line });
    else output.out.write(`${line}\n`);
  }
  const ended = await client.waitForRun(run.id);
  if (json) writeJsonLine(output, { type: 'run', run: ended });
  else output.err.write(`Run ${ended.id} ${ended.state}${ended.state_message ? `: ${ended.state_message}` : ''}.\n`);
  return OUTCOME_EXIT[ended.state as keyof typeof OUTCOME_EXIT] ?? COMMAND_FAILED;
}

async function start(client: SvcClient, args: string[], output: Output): Promise<number> {
  const { values } = parseCommand(args, { device: { type: 'string' }, macro: { type: 'string' }, arg: { type: 'string', multiple: true }, 'args-json': { type: 'string' }, follow: { type: 'boolean' } }, USAGE);
  const device = positiveInteger(values.device, '--device', USAGE);
  const macro = positiveInteger(values.macro, '--macro', USAGE);
  const runArguments = runArgs(values.arg, values['args-json'], USAGE);
  const run = await client.runs.start(device, { macro_id: macro, ...(runArguments ? { args: runArguments } : {}) });
  if (values.follow) return follow(client, run, values.json === true, output);
  if (values.json) writeJson(output, run);
  else output.out.write(`Run ${run.id} (${run.execution_id}) started on device ${device}: ${run.state}\n`);
  return 0;
}

async function logs(client: SvcClient, args: string[], output: Output): Promise<number> {
  const { values, positionals } = parseCommand(args, { follow: { type: 'boolean' }, 'max-lines': { type: 'string' } }, USAGE);
  const executionId = positionals[0];
  if (!executionId || positionals.length > 1) throw new CliError(`Name one run by its execution_id.\n${USAGE}`, COMMAND_FAILED);
  const maxLines = values['max-lines'] === undefined ? undefined : positiveInteger(values['max-lines'], '--max-lines', USAGE);
  if (values.follow) {
    for await (const line of client.followLogs(executionId, { maxLines })) {
      if (values.json) writeJsonLine(output, { type: 'log', line });
      else output.out.write(`${line}\n`);
    }
    return 0;
  }
  const read = await client.executions.logs(executionId, maxLines ? { max_lines: maxLines } : {});
  if (values.json) writeJson(output, read);
  else for (const line of read.lines) output.out.write(`${line}\n`);
  return 0;
}

async function stop(client: SvcClient, args: string[], output: Output): Promise<number> {
  const { values, positionals } = parseCommand(args, {}, USAGE);
  if (positionals.length !== 1) throw new CliError(`Name one run.\n${USAGE}`, COMMAND_FAILED);
  const run = await client.runs.stop(runRef(positionals[0], USAGE));
  if (values.json) writeJson(output, run);
  else output.out.write(`Run ${run.id} (${run.execution_id}): ${run.state}${run.state_message ? ` (${run.state_message})` : ''}\n`);
  return 0;
}

const STATUSES = ['running', 'completed', 'failed', 'stopped'] as const;

async function list(client: SvcClient, args: string[], output: Output): Promise<number> {
  const { values } = parseCommand(
    args,
    { status: { type: 'string' }, device: { type: 'string' }, macro: { type: 'string' }, since: { type: 'string' }, until: { type: 'string' }, limit: { type: 'string' }, all: { type: 'boolean' } },
    USAGE,
  );
  if (values.status !== undefined && !(STATUSES as readonly string[]).includes(values.status)) throw new CliError(`--status is one of ${STATUSES.join(', ')}\n${USAGE}`, COMMAND_FAILED);
  const limit = values.all ? Number.POSITIVE_INFINITY : values.limit === undefined ? 50 : positiveInteger(values.limit, '--limit', USAGE);
  const query = {
    ...(values.status ? { status: values.status as (typeof STATUSES)[number] } : {}),
    ...(values.device ? { device_id: positiveInteger(values.device, '--device', USAGE) } : {}),
    ...(values.macro ? { macro_id: positiveInteger(values.macro, '--macro', USAGE) } : {}),
    ...(values.since ? { since: values.since } : {}),
    ...(values.until ? { until: values.until } : {}),
    page_size: Math.min(200, limit),
  };
  const rows = [];
  for await (const run of client.executions.all(query)) {
    rows.push(run);
    if (rows.length >= limit) break;
  }
  if (values.json) {
    writeJson(output, rows);
    return 0;
  }
  writeTable(
    output,
    ['ID', 'EXECUTION_ID', 'STATUS', 'MACRO', 'DEVICE', 'STARTED', 'DURATION'],
    rows.map((run) => [run.id, run.execution_id, run.status, run.macro_name ?? run.macro_id, run.device_name ?? run.device_id, run.started_at, run.duration_ms === undefined ? undefined : `${(run.duration_ms / 1000).toFixed(1)} s`]),
  );
  return 0;
}

const COMMANDS: Record<string, (client: SvcClient, args: string[], output: Output) => Promise<number>> = { start, logs, stop, list };

/** Runs `svc runs …` and returns the exit code. */
export async function runRunsCommand(config: LoadedConfig, args: string[], output: Output): Promise<number> {
  const [sub, ...rest] = args;
  const command = sub === undefined ? undefined : COMMANDS[sub];
  if (!command) throw new CliError(USAGE, COMMAND_FAILED);
  const client = keyClient(config);
  return reportingFailures(config.svcBaseUrl, () => command(client, rest, output));
}
