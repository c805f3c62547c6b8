// `svc code hash DIR` and `svc code push DIR --macro ID`: what a user needs to sync a macro's
// code from a terminal or a script. Push uploads with SVC_API_KEY to SVC_BASE_URL, through the
// TypeScript SDK (clients/typescript) as every key command does.
import { parseArgs } from 'node:util';
import { type CodeUploadBody, createSvcClient, SvcApiError, SvcConnectionError } from '#svc-client';
import { stringify } from 'yaml';
import type { LoadedConfig as Config } from '../../config.js';
import { CliError } from '../../lib/cli-error.js';
import { worktreeHash } from './hash.js';
import { readWorktree, type Worktree, WorktreeError, zipWorktree } from './worktree.js';

const USAGE = 'Usage: svc code hash DIR | svc code push DIR --macro ID [--entry PATH]';

async function readFolder(dir: string | undefined): Promise<Worktree> {
  if (!dir) throw new CliError(USAGE);
  try {
    const tree = await readWorktree(dir);
    for (const path of tree.skipped) process.stderr.write(`skipped ${path}: not a regular file or folder\n`);
    return tree;
  } catch (error) {
    if (error instanceof WorktreeError) throw new CliError(error.message);
    throw error;
  }
}

async function upload(config: Config, macroId: number, body: CodeUploadBody): Promise<unknown> {
  if (!config.svcApiKey) throw new CliError('Set SVC_API_KEY to an API key with the macros:run scope.');
  // Sent once: a 429 or 503 is reported, not waited out, so a person at the terminal decides.
  const client = createSvcClient({ apiKey: config.svcApiKey, baseUrl: config.svcBaseUrl, retry: false, headers: { 'user-agent': 'svc-cli' } });
  try {
    return await client.code.upload(macroId, body);
  } catch (error) {
    if (error instanceof SvcApiError) throw new CliError(`${error.status} ${error.code}: ${error.serviceMessage}`);
    if (error instanceof SvcConnectionError) {
      const cause = error.cause as { cause?: { message?: string }; message?: string } | undefined;
      throw new CliError(`Could not reach the server at ${config.svcBaseUrl} (set SVC_BASE_URL): ${cause?.cause?.message ?? cause?.message ?? error.message}`);
    }
    throw error;
  }
}

export async function runCodeCommand(config: Config, args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'hash') {
    const { positionals } = parseArgs({ args: rest, allowPositionals: true });
    const tree = await readFolder(positionals[0]);
    process.stdout.write(`${worktreeHash(tree.files)}\n`);
    return;
  }
  if (sub === 'push') {
    const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { macro: { type: 'string' }, entry: { type: 'string' } } });
    if (!values.macro || !/^\d+$/.test(values.macro)) throw new CliError(USAGE);
    const tree = await readFolder(positionals[0]);
    const zip = await zipWorktree(tree.files);
    const answer = await upload(config, Number(values.macro), {
      zip_file_base64: zip.toString('base64'),
      worktree_hash: worktreeHash(tree.files),
      ...(values.entry ? { entry_path: values.entry } : {}),
    });
    // YAML: readable at a terminal (`created: false`, one warning per item) and parseable by scripts.
    process.stdout.write(stringify(answer));
    return;
  }
  throw new CliError(USAGE);
}
