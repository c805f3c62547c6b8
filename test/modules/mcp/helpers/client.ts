// The official MCP SDK client against the real server on 127.0.0.1, and an app whose
// BASE_URL is the address it listens on (discovery documents name it, and the SDK checks
// that the resource they describe is the server it connects to). The app runs its own
// background workers, as `serve` does: the device lifecycle job boots a device a lease
// starts, and the cloud-run job runs what run_start queues.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { allModules } from '../../../../src/build-modules.js';
import type { TestAppOptions } from '../../../helpers/app.js';
import { listeningTestApp } from '../../../helpers/listening-app.js';

export { freePort } from '../../../helpers/listening-app.js';

/** The app listening on 127.0.0.1 with BASE_URL set to it, its workers running (unless `workers: false`). */
export async function listeningApp(options: TestAppOptions & { workers?: boolean } = {}) {
  const { t, baseUrl } = await listeningTestApp({ ...options, env: { SIM_BOOT_MS: '20', ...options.env } });
  const workers = options.workers === false ? [] : allModules(t.app.modules).flatMap((module) => module.workers ?? []);
  for (const worker of workers) worker.start();
  return {
    ...t,
    baseUrl,
    async close() {
      await Promise.all(workers.map((worker) => worker.stop()));
      await t.close();
    },
  };
}

export async function connect(baseUrl: string, auth: { headers?: Record<string, string>; authProvider?: OAuthClientProvider }): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: auth.headers ?? {} }, authProvider: auth.authProvider });
  await client.connect(transport);
  return client;
}

export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The error result's code and sentence (and proof it is one). */
export function failure(result: CallToolResult): { code: unknown; text: string } {
  if (!result.isError) throw new Error(`expected an error result, got ${JSON.stringify(result).slice(0, 300)}`);
  if (result.structuredContent !== undefined) throw new Error('an error result carries no structuredContent');
  const [item] = result.content;
  return { code: result._meta?.code, text: item?.type === 'text' ? item.text : '' };
}

export function data<T = Record<string, unknown>>(result: CallToolResult): T {
  if (result.isError) throw new Error(`tool failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as T;
}
