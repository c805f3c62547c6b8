// A small POSIX-style shell for the fake device: parses a command line the way the device's
// sh would (shell-quote: quoting, `&&`, `||`, `;`, `>` redirections) and runs each command
// with commands.ts. Quoting mistakes in the driver therefore show up here as they would on
// a phone: a `;` that is not quoted starts a second command.
import { parse } from 'shell-quote';
import { runCommand } from './commands.js';
import type { CommandResult, FakeAndroidDevice } from './device.js';

type Token = ReturnType<typeof parse>[number];

interface Simple {
  argv: string[];
  stdoutTo?: string;
  discardStderr: boolean;
  /** What the command before `|` wrote. */
  stdin?: Buffer;
  /** Its output goes to the next command (`|`). */
  piped?: boolean;
}

function isOp(token: Token, op?: string): token is { op: string } {
  return typeof token === 'object' && token !== null && 'op' in token && (op === undefined || token.op === op);
}

export async function runShell(device: FakeAndroidDevice, line: string): Promise<CommandResult> {
  device.commands.push(line);
  // As sh does, `$NAME` outside single quotes expands, here to nothing (the fake has no
  // variables): an unquoted `.Outer$Inner` reaches the command as `.Outer`.
  const tokens = parse(line, (name) => (device.behaviour.expandVariables ? '' : `$${name}`));
  const chunks: Buffer[] = [];
  let exitCode = 0;
  let pendingOp: string | undefined;
  let current: Simple = { argv: [], discardStderr: false };
  let piped: Buffer | undefined;
  const execute = async () => {
    const simple = current;
    current = { argv: [], discardStderr: false };
    if (simple.argv.length === 0) return;
    if (simple.stdin === undefined && pendingOp === '&&' && exitCode !== 0) return;
    if (simple.stdin === undefined && pendingOp === '||' && exitCode === 0) return;
    const result = await runCommand(device, simple.argv, simple.stdin);
    exitCode = result.exitCode;
    if (simple.piped) piped = result.stdout;
    else if (simple.stdoutTo === undefined) chunks.push(result.stdout);
    else if (simple.stdoutTo !== '/dev/null') device.files.set(simple.stdoutTo, result.stdout);
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (typeof token === 'string') {
      // `2>/dev/null` arrives as "2", ">", "/dev/null".
      if (/^\d$/.test(token) && isOp(tokens[i + 1], '>')) {
        current.discardStderr = true;
        i += 2;
        continue;
      }
      current.argv.push(token);
      continue;
    }
    if (isOp(token, '>')) {
      const target = tokens[++i];
      current.stdoutTo = typeof target === 'string' ? target : '/dev/null';
      continue;
    }
    if (isOp(token, '|')) {
      current.piped = true;
      await execute();
      current.stdin = piped ?? Buffer.alloc(0);
      continue;
    }
    if (isOp(token) && ['&&', '||', ';'].includes(token.op)) {
      await execute();
      pendingOp = token.op;
      continue;
    }
    if (typeof token === 'object' && token !== null && 'pattern' in token) {
      current.argv.push(String((token as { pattern: string }).pattern));
      continue;
    }
    return { stdout: Buffer.from(`/system/bin/sh: syntax error: unexpected '${JSON.stringify(token)}'\n`), exitCode: 2 };
  }
  await execute();
  return { stdout: Buffer.concat(chunks), exitCode };
}
