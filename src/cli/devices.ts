// `svc devices list`: every device of the key's owner (`devices:control`), on the SDK.
import type { LoadedConfig } from '../config.js';
import { CliError } from '../lib/cli-error.js';
import { parseCommand, positiveInteger } from './args.js';
import { COMMAND_FAILED, keyClient, reportingFailures } from './key-client.js';
import { type Output, writeJson, writeTable } from './output.js';

const USAGE = 'Usage: svc devices list [--name TEXT] [--group ID] [--macro ID] [--json]   (SVC_API_KEY with devices:control, SVC_BASE_URL)';

export async function runDevicesCommand(config: LoadedConfig, args: string[], output: Output): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'list') throw new CliError(USAGE, COMMAND_FAILED);
  const { values, positionals } = parseCommand(rest, { name: { type: 'string' }, group: { type: 'string' }, macro: { type: 'string' } }, USAGE);
  if (positionals.length) throw new CliError(USAGE, COMMAND_FAILED);
  const query = {
    ...(values.name ? { name: values.name } : {}),
    ...(values.group ? { group_id: positiveInteger(values.group, '--group', USAGE) } : {}),
    ...(values.macro ? { macro_id: positiveInteger(values.macro, '--macro', USAGE) } : {}),
  };
  const client = keyClient(config);
  const devices = await reportingFailures(config.svcBaseUrl, async () => {
    const rows = [];
    for await (const device of client.devices.all(query)) rows.push(device);
    return rows;
  });
  if (values.json) {
    writeJson(output, devices);
    return 0;
  }
  writeTable(
    output,
    ['ID', 'NAME', 'KIND', 'STATE', 'PORT', 'GROUP', 'RUNS'],
    devices.map((device) => [device.id, device.name, device.is_hosted ? 'cloud' : 'local', device.hosted_state, device.port, device.group_id, device.run_count]),
  );
  return 0;
}
