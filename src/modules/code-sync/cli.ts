// `svc code hash DIR` and `svc code push DIR --macro ID`: what a user needs to sync a macro's
// code from a terminal or a script. Push uploads with SVC_API_KEY to SVC_BASE_URL.
import { parseArgs } from 'node:util';
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

async function upload(config: Config, macroId: string, body: object): Promise<unknown> {
  if (!config.svcApiKey) throw new CliError('Set SVC_API_KEY to an API key with the macros:run scope.');
  const url = `${config.svcBaseUrl}/api/macros/${macroId}/code-snapshot`;
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers: { 'x-api-key': config.svcApiKey, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    throw new CliError(`Could not reach the server at ${config.svcBaseUrl} (set SVC_BASE_URL): ${cause}`);
  }
  const payload = (await response.json().catch(() => ({}))) as { message?: string; details?: { code?: string } };
  if (!response.ok) throw new CliError(`${response.status} ${payload.details?.code ?? ''}: ${payload.message ?? response.statusText}`);
  return payload;
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
    const answer = await upload(config, values.macro, {
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
