// `svc COMMAND [SUB] --help` (or `-h`): the help of that one command, printed on stdout with
// exit 0 before any setting is read, so it needs no key, no token and no database, and
// `svc serve --help` does not start a server. Texts only: this file imports nothing.

const KEY = 'SVC_API_KEY (a whole key) and SVC_BASE_URL (the server, default BASE_URL)';
const KEY_EXITS = `Exit status: 0 done; 3 the command failed (bad usage, a refusal such as 403 or 404, an
unreachable server, a bad SVC_API_KEY); 130 interrupted by Ctrl-C (SIGINT).`;

const HELP: Record<string, string> = {
  serve: `Usage: svc serve

Starts the HTTP service (console, API, docs) after applying migrations; also runs the
background workers unless RUN_WORKERS=false. Ctrl-C or SIGTERM finishes the requests in
flight and exits 0.`,
  worker: `Usage: svc worker

Runs only the background workers (webhook deliveries, the device lifecycle, cloud runs)
against DATABASE_URL; any number of them beside \`svc serve\` on PostgreSQL.`,
  migrate: 'Usage: svc migrate\n\nApplies the database migrations and exits.',
  openapi: 'Usage: svc openapi\n\nPrints the OpenAPI document as JSON.',
  admin: `Usage: svc admin users [--email E]
       svc admin subscription USER_ID [--status trialing|active|inactive] [--plan P]
             [--trial-ends-at T] [--current-period-end T]     ("null" clears a value)
       svc admin credits USER_ID LIMIT|default

Calls the admin API of the server at BASE_URL with ADMIN_TOKEN; prints its answer as JSON.`,
  code: `Usage: svc code hash DIR
       svc code push DIR --macro ID [--entry PATH]

hash prints the worktree hash of DIR, zipped as push zips it. push uploads DIR as macro
ID's code snapshot (SVC_API_KEY with macros:run, SVC_BASE_URL) and prints the answer as YAML.`,
  runs: `Usage: svc runs start|logs|stop|list …   (svc runs SUBCOMMAND --help for one)

  svc runs start --device ID --macro ID [--arg name=value]... [--args-json JSON] [--follow]
  svc runs logs EXECUTION_ID [--follow] [--max-lines N]
  svc runs stop RUN
  svc runs list [--status S] [--device ID] [--macro ID] [--since T] [--until T] [--limit N | --all]

${KEY}; --json on each for scripts.`,
  'runs start': `Usage: svc runs start --device ID --macro ID [--arg name=value]... [--args-json JSON]
                      [--follow] [--json]

Starts a cloud run of macro ID on device ID and prints it (scope macros:run; runs:read too
with --follow). ${KEY}.

  --device ID         the cloud device to run on
  --macro ID          the macro to run
  --arg name=value    one argument of the run (repeatable): true, false, null and numbers
                      become JSON values, anything else a string
  --args-json JSON    every argument at once, as a JSON object; --arg is laid over it
  --follow            print the run's log as it arrives, then how it ended (on stderr)
  --json              JSON for scripts (with --follow, one object a line)

Exit status: 0 started (with --follow: the run completed); 1 the followed run failed; 2 it
was stopped; 3 the command failed; 130 interrupted by Ctrl-C, which stops following, not the
run (svc runs stop RUN stops it).`,
  'runs logs': `Usage: svc runs logs EXECUTION_ID [--follow] [--max-lines N] [--json]

Prints a run's log: the newest lines (default 200, up to 1000 with --max-lines), or with
--follow every line until the run ends (scope runs:read). ${KEY}.

${KEY_EXITS}`,
  'runs stop': `Usage: svc runs stop RUN [--json]

Stops a cloud run; RUN is its id or its execution_id (cr_…). Prints the run's new state
(scope macros:run). ${KEY}.

${KEY_EXITS}`,
  'runs list': `Usage: svc runs list [--status running|completed|failed|stopped] [--device ID] [--macro ID]
                     [--since T] [--until T] [--limit N | --all] [--json]

Prints the run history, newest first: 50 rows unless --limit N or --all; T is an RFC 3339
time (scope runs:read). ${KEY}.

${KEY_EXITS}`,
  devices: 'Usage: svc devices list …   (svc devices list --help)',
  'devices list': `Usage: svc devices list [--name TEXT] [--group ID] [--macro ID] [--json]

Prints every device of the key's owner: id, name, cloud or local, state, port, group, run
count (scope devices:control). ${KEY}.

${KEY_EXITS}`,
};

/** Whether the arguments ask for help: `--help` or `-h` before any `--`. */
export function asksForHelp(args: string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/**
 * The help of `svc COMMAND [SUB]` from the arguments after `svc` (`runs start --device 3 -h`
 * gives `runs start`'s); the command's own when the subcommand is unknown or missing, and
 * undefined for an unknown command.
 */
export function helpFor(args: string[]): string | undefined {
  const [command, sub] = args;
  if (command === undefined) return undefined;
  return HELP[`${command} ${sub}`] ?? HELP[command];
}
