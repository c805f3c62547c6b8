// The project's own fuzz test: every operation of the committed openapi.json, called with
// generated and mutated path parameters, query strings and bodies, with valid credentials
// of the kind the operation takes. It fails on any 5xx, any status the document does not
// list for the operation, any answer that breaks its documented schema, and any change of
// state made by a refused (4xx) request.
//
// FUZZ_SEED (default fixed) picks the inputs; FUZZ_RUNS (default 25) is the number of
// requests per operation; FUZZ_SHRINK=1 shrinks a failure to a smaller input. The state
// carries from one operation to the next, so a failure reproduces with the same seed and
// runs for the whole file.
//
// Deliberately, no job worker runs here: a cloud device the fuzz starts stays `placing` and a
// run stays `launching`. So the screenshot, live view (an endless MJPEG stream that `inject`
// could not end), apps and APK routes are fuzzed on their refusals only (404, 409
// `device_not_ready`, 415, 422); their binary and streaming answers are tested in
// test/modules/devices/actions.test.ts, and the routes under attack on ready devices in
// test/modules/runs/cloud-route-attacks.test.ts.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { ENGINE } from '../helpers/engine.js';
import { signIn } from '../helpers/users.js';
import { type Failure, KNOWN_DEFECTS } from './known-defects.js';
import { fuzzRequest, mutationsFor, serialise } from './mutations.js';
import { type FuzzRequest, generationContext, listOperations, type OpenApiDocument, type Operation, validRequest } from './operations.js';
import { ResponseChecker } from './response-check.js';
import { difference, type Snapshot, snapshot, tablesOf } from './state-snapshot.js';
import { ADMIN_TOKEN, fuzzResolver, loadPools, seedWorld, type World } from './world.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_302);
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const SHRINK = process.env.FUZZ_SHRINK === '1';

const doc = JSON.parse(readFileSync('openapi.json', 'utf8')) as OpenApiDocument;
const operations = listOperations(doc);

let t: TestApp;
let world: World;
let tables: string[];
let checker: ResponseChecker;
let current: Snapshot;
const statuses = new Map<string, number>();
/** Per operation, how its answers were spread (printed with FUZZ_VERBOSE=1). */
const byOperation = new Map<string, Map<number, number>>();
const knownHits = new Map<string, number>();
let skipped = 0;

beforeAll(async () => {
  t = await createTestApp({
    resolver: fuzzResolver,
    env: {
      ADMIN_TOKEN,
      RATE_LIMIT_PER_KEY: '1000000',
      RATE_LIMIT_PER_ACCOUNT: '1000000',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false',
      // Never reached (proxy checks stop at the address rule), and nothing listens there anyway.
      PROXY_CHECK_URL: 'http://127.0.0.1:9/ip',
      PROXY_CHECK_TIMEOUT_MS: '100',
      // Authoring on, so its routes are walked for real (without it they all answer 503); this app
      // runs no workers, so no session ever calls the model, and nothing listens there anyway.
      AUTHOR_LLM_URL: 'http://127.0.0.1:9/v1',
    },
  });
  world = await seedWorld(t);
  tables = await tablesOf(t.db.kysely, t.db.dialect);
  checker = new ResponseChecker(doc);
  current = await snapshot(t.db.kysely, tables);
}, 120_000);

afterAll(async () => {
  const summary = [...statuses.entries()].sort().map(([k, n]) => `${k}: ${n}`).join(', ');
  console.log(`fuzz (${ENGINE}, seed ${SEED}, ${RUNS} runs per operation): ${summary}; skipped ${skipped}`);
  if (process.env.FUZZ_VERBOSE === '1') {
    for (const [id, spread] of byOperation) console.log(`  ${id}: ${[...spread.entries()].sort().map(([k, n]) => `${k}×${n}`).join(' ')}`);
  }
  if (knownHits.size > 0) console.log(`known defects met: ${[...knownHits.entries()].map(([k, n]) => `${k} (${n})`).join('; ')}`);
  await t?.close();
});

async function credentials(op: Operation): Promise<Record<string, string>> {
  switch (op.auth) {
    case 'apiKey':
      return { 'x-api-key': world.key.key };
    case 'admin':
      return { authorization: `Bearer ${ADMIN_TOKEN}` };
    case 'public':
      return {};
    case 'session':
      // Signing out ends the session it is sent with: give it one of its own.
      if (op.operationId !== 'signOut') return world.main.auth;
      return (await signIn(t.app, world.main)).auth;
  }
}

function urlOf(op: Operation, request: FuzzRequest): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => request.params[name] ?? '1');
  const query = request.query.map(([name, v]) => `${encodeURIComponent(name)}=${'encoded' in v ? v.encoded : encodeURIComponent(v.text)}`).join('&');
  return query ? `${path}?${query}` : path;
}

/** Proxy checks connect out: only a proxy on a private address literal (refused before any connection) may be checked. */
async function wouldReachNetwork(op: Operation, request: FuzzRequest): Promise<boolean> {
  if (op.operationId !== 'validateProxy') return false;
  const id = Number(/^\d+$/.test(request.params.id ?? '') ? request.params.id : NaN);
  if (!Number.isSafeInteger(id)) return false;
  const proxy = await t.db.kysely.selectFrom('proxies').select(['host', 'user_id']).where('id', '=', id).executeTakeFirst();
  if (!proxy || Number(proxy.user_id) !== world.main.id) return false;
  const host = proxy.host.replace(/^\[|\]$/g, '');
  return !ipaddr.isValid(host) || ipaddr.parse(host).range() === 'unicast';
}

const clip = (text: string | undefined, n = 300) => (text === undefined ? '(none)' : text.length > n ? `${text.slice(0, n)}… (${text.length} chars)` : text);

async function exercise(op: Operation, request: FuzzRequest): Promise<void> {
  if (await wouldReachNetwork(op, request)) {
    skipped++;
    return;
  }
  const headers = await credentials(op);
  if (op.operationId === 'signOut') current = await snapshot(t.db.kysely, tables);
  const url = urlOf(op, request);
  const body = request.body;
  const payload = body === undefined ? undefined : 'raw' in body ? body.raw : 'bytes' in body ? Buffer.from(body.bytes) : serialise(body.json);
  const bodyText = payload === undefined ? undefined : payload.toString();
  const res = await t.app.inject({
    method: op.method.toUpperCase() as 'GET',
    url,
    headers: { ...headers, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}), ...request.headers },
    ...(payload !== undefined ? { payload } : {}),
  });
  statuses.set(String(res.statusCode), (statuses.get(String(res.statusCode)) ?? 0) + 1);
  const spread = byOperation.get(op.operationId) ?? new Map<number, number>();
  byOperation.set(op.operationId, spread.set(res.statusCode, (spread.get(res.statusCode) ?? 0) + 1));
  const failures: Failure[] = [];
  const base = { op, request, url, bodyText, status: res.statusCode, responseBody: res.body, engine: ENGINE } as const;
  if (res.statusCode >= 500) failures.push({ ...base, kind: 'server error', detail: `answered ${res.statusCode}` });
  const problem = checker.problem(op, res.statusCode, res.headers['content-type'] as string | undefined, res.body);
  if (problem) failures.push({ ...base, kind: 'document', detail: problem });
  const after = await snapshot(t.db.kysely, tables);
  if (res.statusCode >= 400 && res.statusCode < 500) {
    const changes = difference(current, after);
    if (changes.length > 0) failures.push({ ...base, kind: 'state', detail: `the refused request changed state:\n  ${changes.slice(0, 10).join('\n  ')}` });
  }
  current = after;
  const unexplained = failures.filter((failure) => {
    const known = KNOWN_DEFECTS.find((defect) => defect.explains(failure));
    if (known) knownHits.set(known.name, (knownHits.get(known.name) ?? 0) + 1);
    return !known;
  });
  if (unexplained.length > 0) {
    throw new Error(
      `${op.method.toUpperCase()} ${clip(url, 200)} [${request.mutation}] ${request.headers ? JSON.stringify(request.headers) : ''}\n  body sent: ${clip(bodyText)}\n  answer: ${res.statusCode} ${clip(res.body)}\n` +
        unexplained.map((f) => `  - ${f.kind}: ${f.detail}`).join('\n'),
    );
  }
}

describe('every operation of openapi.json, fuzzed', () => {
  operations.forEach((op, index) => {
    test(`${op.operationId} (${op.method.toUpperCase()} ${op.path})`, async () => {
      const pools = await loadPools(t.db.kysely, world);
      const ctx = generationContext(doc, pools, [world.main.email, world.other.email]);
      const requests = fuzzRequest(validRequest(op, ctx, pools), mutationsFor(op, pools));
      const before = [...statuses.values()].reduce((a, b) => a + b, 0) + skipped;
      await fc.assert(fc.asyncProperty(requests, (request) => exercise(op, request)), {
        numRuns: RUNS,
        seed: SEED + index,
        endOnFailure: !SHRINK,
        reporter: (run) => {
          if (!run.failed) return;
          const reason = run.errorInstance instanceof Error ? run.errorInstance.message : String(run.errorInstance);
          throw new Error(`${op.operationId} failed after ${run.numRuns} runs (FUZZ_SEED=${SEED}, operation seed ${run.seed}, path ${run.counterexamplePath}):\n${reason}`);
        },
      });
      expect([...statuses.values()].reduce((a, b) => a + b, 0) + skipped - before).toBe(RUNS);
    }, 600_000);
  });
});
