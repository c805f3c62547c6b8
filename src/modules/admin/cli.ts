// `svc admin …`: the admin operations for a person at a terminal, by calling the admin API
// of a running server (BASE_URL) with ADMIN_TOKEN.
import { parseArgs } from 'node:util';
import type { LoadedConfig as Config } from '../../config.js';
import { CliError } from '../../lib/cli-error.js';

async function call(config: Config, method: string, path: string, body?: unknown): Promise<unknown> {
  if (!config.adminToken) throw new CliError('Set ADMIN_TOKEN to the token the server was started with.');
  let response: Response;
  try {
    response = await fetch(`${config.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${config.adminToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    throw new CliError(`Could not reach the server at ${config.baseUrl} (set BASE_URL): ${cause}`);
  }
  const payload = (await response.json().catch(() => ({}))) as { message?: string };
  if (!response.ok) throw new CliError(`${response.status}: ${payload.message ?? response.statusText}`);
  return payload;
}

const nullable = (value: string | undefined) => (value === 'null' ? null : value);

export async function runAdminCommand(config: Config, args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'users') {
    const { values } = parseArgs({ args: rest, options: { email: { type: 'string' } } });
    const query = values.email ? `?email=${encodeURIComponent(values.email)}` : '';
    process.stdout.write(`${JSON.stringify(await call(config, 'GET', `/admin/users${query}`), null, 2)}\n`);
    return;
  }
  if (sub === 'subscription') {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        status: { type: 'string' },
        plan: { type: 'string' },
        'trial-ends-at': { type: 'string' },
        'current-period-end': { type: 'string' },
      },
    });
    const userId = positionals[0];
    if (!userId || !/^\d+$/.test(userId)) throw new CliError('Usage: svc admin subscription USER_ID [--status S] [--plan P] [--trial-ends-at T] [--current-period-end T]');
    const body = Object.fromEntries(
      Object.entries({
        status: values.status,
        plan: nullable(values.plan),
        trial_ends_at: nullable(values['trial-ends-at']),
        current_period_end: nullable(values['current-period-end']),
      }).filter(([, v]) => v !== undefined),
    );
    process.stdout.write(`${JSON.stringify(await call(config, 'PUT', `/admin/users/${userId}/subscription`, body), null, 2)}\n`);
    return;
  }
  if (sub === 'credits') {
    // The month's AI credits of an account: a whole number, or `default` for AUTHOR_CREDITS_PER_MONTH.
    const [userId, limit] = rest;
    if (!userId || !/^\d+$/.test(userId) || !limit || !/^(\d{1,7}|default)$/.test(limit)) throw new CliError('Usage: svc admin credits USER_ID LIMIT|default');
    const body = { limit: limit === 'default' ? null : Number(limit) };
    process.stdout.write(`${JSON.stringify(await call(config, 'PUT', `/admin/users/${userId}/credits`, body), null, 2)}\n`);
    return;
  }
  throw new CliError('Usage: svc admin users [--email E] | svc admin subscription USER_ID [options] | svc admin credits USER_ID LIMIT|default');
}
