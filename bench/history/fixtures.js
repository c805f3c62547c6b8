// @ts-check
// The history benchmark's fixtures (users, groups, macros, devices, a key), made through the
// app's own routes as sessions, so they are exactly what the service would hold.

/** @typedef {Awaited<ReturnType<typeof import('../../dist/app.js').buildApp>>} App */

/**
 * One request through `app.inject`; an unexpected status stops the benchmark.
 * @param {App} app
 * @param {'GET' | 'POST'} method
 * @param {string} url
 * @param {{ payload?: object, headers?: Record<string, string>, expect?: number[] }} [options]
 * @returns {Promise<any>} the parsed JSON answer
 */
export async function call(app, method, url, { payload, headers = {}, expect = [200, 201] } = {}) {
  const res = await app.inject({ method, url, headers, payload });
  if (!expect.includes(res.statusCode)) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
  return res.json();
}

/**
 * @typedef {{ id: number, auth: Record<string, string> }} BenchUser
 * @typedef {{ id: number, name: string, kind: string }} BenchMacro
 * @typedef {{ id: number, name: string, port?: number, group_id?: number | null }} BenchDevice
 * @typedef {{ owner: BenchUser, other: BenchUser, macros: BenchMacro[], devices: BenchDevice[], otherMacros: BenchMacro[], otherDevices: BenchDevice[], key: string }} Fixtures
 */

/**
 * Users, groups, macros and devices go through the app's own routes (as sessions).
 * @param {App} app
 * @param {string} suffix
 * @returns {Promise<Fixtures>}
 */
export async function seedFixtures(app, suffix) {
  const signUp = async (who) => {
    const signedIn = await call(app, 'POST', '/api/auth/signup', { payload: { email: `history-${who}-${suffix}@example.com`, password: `pw-${suffix}-${suffix}`, name: `History ${who}` } });
    return { id: signedIn.user.id, auth: { authorization: `Bearer ${signedIn.session.token}` } };
  };
  const owner = await signUp('owner');
  const other = await signUp('other');
  const post = (user, url, payload) => call(app, 'POST', url, { payload, headers: user.auth });

  const groups = {};
  for (const [name, kind] of [['Farm A', 'byod'], ['Farm B', 'byod'], ['Cloud EU', 'cloud'], ['Cloud US', 'cloud']]) {
    groups[name] = (await post(owner, '/api/emulator/groups', { name, kind })).id;
  }
  const macroNames = ['Daily check-in', 'Claim rewards', 'Farm energy', 'Arena loop', 'Shop refresh', 'Mail collector', 'Quest runner', 'Guild donate', 'Event grinder', 'Login rotator'];
  const macros = [];
  for (const [i, name] of macroNames.entries()) {
    const kind = i % 5 === 4 || i % 5 === 2 ? 'block' : 'python';
    macros.push({ ...(await post(owner, '/api/macros', { name, kind, description: `Bench macro ${i + 1}` })), kind });
  }
  const devices = [];
  for (let i = 0; i < 150; i++) {
    const group = i % 3 === 0 ? groups['Farm A'] : i % 3 === 1 ? groups['Farm B'] : undefined;
    devices.push(await post(owner, '/api/emulator/devices', { name: `Pixel ${i + 1}`, port: 5555 + 2 * i, ...(group ? { group_id: group } : {}) }));
  }
  for (let i = 0; i < 50; i++) {
    const group = i % 5 < 2 ? groups['Cloud EU'] : i % 5 === 2 ? groups['Cloud US'] : undefined;
    devices.push(await post(owner, '/api/hosted/devices', { name: `Cloud phone ${i + 1}`, ...(group ? { group_id: group } : {}) }));
  }
  const otherMacros = [];
  for (const name of ['Other daily', 'Other loop']) otherMacros.push({ ...(await post(other, '/api/macros', { name, kind: 'python' })), kind: 'python' });
  const otherDevices = [];
  for (let i = 0; i < 10; i++) otherDevices.push(await post(other, '/api/emulator/devices', { name: `Other phone ${i + 1}`, port: 6000 + i }));

  const key = await post(owner, '/api/api-keys', { name: 'history bench', expires_in: 'never' });
  if (key.api_key.scopes.length !== 0) throw new Error(`expected a full-access key, got scopes ${JSON.stringify(key.api_key.scopes)}`);
  return { owner, other, macros, devices, otherMacros, otherDevices, key: key.key };
}
