// Nothing secret is published: each kind of secret in a file, a block program or the
// Default arguments refuses the publish (422 secret_found) naming the file and line and the
// kind, never the secret, and writes nothing. Ordinary code is not flagged.
import { beforeAll, describe, expect, test } from 'vitest';
import { useAppAndUser } from '../../helpers/app-user.js';
import { blockMacro, call, codeMacro, MARKETPLACE_ENV, marketplaceCounts, publish, syncCode } from '../../helpers/marketplace.js';
import type { SignedUpUser } from '../../helpers/users.js';

const world = useAppAndUser({ env: MARKETPLACE_ENV });
let author: SignedUpUser;
beforeAll(() => {
  author = world.user;
});

// Built from pieces so this file does not itself look like it holds secrets.
const SECRETS: [string, string][] = [
  ['service_api_key', `svc_${'ab12'.repeat(12)}`],
  ['service_session', `sess_${'cd34'.repeat(12)}`],
  ['service_tool_token', `mcpt_${'ef56'.repeat(16)}`],
  ['webhook_secret', `whsec_${'QUJD'.repeat(10)}MTIz`],
  ['proxy_credentials', 'socks5://farmer:' + 'hunter2pass' + '@203.0.113.7:1080'],
  ['private_key', '-----BEGIN RSA ' + 'PRIVATE KEY-----'],
  ['private_key', '-----BEGIN OPENSSH ' + 'PRIVATE KEY-----'],
  ['aws_access_key', 'AKIA' + 'Q3EGRIKAHBXYZ7N2'],
  ['aws_secret_key', 'aws_secret_access_key = ' + 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'],
  ['google_api_key', 'AIza' + 'SyD4-1abcdefghijklmnopqrstuvwxyz012'],
  ['github_token', 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'],
  ['slack_token', 'xoxb-' + '1234567890-abcdefghij'],
  ['stripe_key', 'sk_live_' + 'abcdefghijklmnopqrstuvwx'],
];

async function expectRefused(macroId: number, check: (body: { message: string; details: { findings: { path: string; line?: number; kind: string }[] } }) => void, secret: string) {
  const before = await marketplaceCounts(world.t);
  const res = await call(world.t.app, author, 'POST', '/api/marketplace/listings', { macro_id: macroId, title: 'Leaky', summary: 'leaks' });
  expect(res.statusCode, res.body).toBe(422);
  expect(res.json().details.code).toBe('secret_found');
  expect(res.body).not.toContain(secret);
  check(res.json());
  expect(await marketplaceCounts(world.t)).toEqual(before);
}

describe('files of a code macro', () => {
  test.each(SECRETS)('%s is refused with its file and line, and not echoed', async (kind, secret) => {
    const macro = await codeMacro(world.t.app, author, [
      { name: 'main.py', data: 'import lib\nprint("hello")\n' },
      { name: 'lib/config.py', data: `# settings\nNAME = "farm"\nTOKEN = "${secret}"\n` },
    ]);
    await expectRefused(macro.id, (body) => {
      expect(body.details.findings).toContainEqual({ path: 'lib/config.py', line: 3, kind, label: expect.any(String) });
      expect(body.message).toContain('lib/config.py line 3');
    }, secret);
  });

  test('a secret on a huge single line is still found', async () => {
    const secret = SECRETS[0][1];
    const macro = await codeMacro(world.t.app, author, [{ name: 'main.py', data: `X = "${'a'.repeat(200_000)} ${secret} ${'b'.repeat(100_000)}"\n` }]);
    await expectRefused(macro.id, (body) => expect(body.details.findings).toEqual([expect.objectContaining({ path: 'main.py', line: 1, kind: 'service_api_key' })]), secret);
  });

  test('ordinary code, key-shaped names and placeholders publish', async () => {
    const macro = await codeMacro(world.t.app, author, [
      { name: 'main.py', data: 'API_KEY = os.environ["SVC_KEY"]\nurl = "http://example.com/path"\nproxy = "socks5://203.0.113.7:1080"\nkey = "svc_<your key>"\n' },
    ]);
    await publish(world.t.app, author, macro.id);
  });

  test('a secret removed and re-synced publishes', async () => {
    const macro = await codeMacro(world.t.app, author, [{ name: 'main.py', data: `K = "${SECRETS[7][1]}"\n` }]);
    await expectRefused(macro.id, () => undefined, SECRETS[7][1]);
    await syncCode(world.t.app, author, macro.id, [{ name: 'main.py', data: 'K = os.environ["K"]\n' }]);
    await publish(world.t.app, author, macro.id);
  });
});

describe('programs and arguments', () => {
  test('a secret in a block program is refused naming the step', async () => {
    const secret = SECRETS[0][1];
    const macro = await blockMacro(world.t.app, author, { version: 1, steps: [{ type: 'tap', text: 'Sign in' }, { type: 'type', text: secret }] });
    await expectRefused(macro.id, (body) => expect(body.details.findings).toEqual([expect.objectContaining({ path: 'blocks.steps.1.text', kind: 'service_api_key' })]), secret);
  });

  test('a secret in the Default arguments is refused; a key that is itself a secret is not named', async () => {
    const secret = SECRETS[4][1];
    const macro = await codeMacro(world.t.app, author, [{ name: 'main.py', data: 'print(1)\n' }], { proxy: secret, [SECRETS[0][1]]: 1 });
    await expectRefused(macro.id, (body) => {
      expect(body.details.findings.map((f) => f.path)).toEqual(['args.proxy', 'args.[key 2]']);
    }, secret);
  });

  test('a new version is scanned too', async () => {
    const macro = await codeMacro(world.t.app, author, [{ name: 'main.py', data: 'print(1)\n' }]);
    const listing = await publish(world.t.app, author, macro.id);
    const secret = SECRETS[5][1];
    await syncCode(world.t.app, author, macro.id, [{ name: 'id_rsa', data: `${secret}\nMIIE\n` }, { name: 'main.py', data: 'print(1)\n' }]);
    const res = await call(world.t.app, author, 'POST', `/api/marketplace/listings/${listing.id}/versions`, {});
    expect(res.statusCode).toBe(422);
    expect(res.json().details.findings).toEqual([expect.objectContaining({ path: 'id_rsa', line: 1, kind: 'private_key' })]);
    expect((await call(world.t.app, author, 'GET', `/api/marketplace/listings/${listing.id}`)).json().latest_version).toBe(1);
  });
});
