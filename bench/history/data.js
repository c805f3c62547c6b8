// @ts-check
// Deterministic data for the history benchmark: a seeded generator, one user's runs as the
// reporter leaves them, and numbered log lines whose number is readable back.

/** @typedef {() => number} Rand a seeded generator of numbers in [0, 1) */

/**
 * A small seeded generator, so every run seeds the same history.
 * @param {number} seed
 * @returns {Rand}
 */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * @param {Rand} rand
 * @param {number} digits
 */
const hex = (rand, digits) => {
  let out = '';
  while (out.length < digits) out += Math.floor(rand() * 0x10000).toString(16).padStart(4, '0');
  return out.slice(0, digits);
};

/** A UUID-shaped execution id chosen by the application; the tail is a counter, so ids never collide. */
/**
 * @param {Rand} rand
 * @param {number} userId
 * @param {number} index
 */
const executionIdOf = (rand, userId, index) =>
  `${hex(rand, 8)}-${hex(rand, 4)}-4${hex(rand, 3)}-${'89ab'[Math.floor(rand() * 4)]}${hex(rand, 3)}-${(userId * 1e10 + index).toString(16).padStart(12, '0')}`;

/**
 * @template T
 * @param {Rand} rand
 * @param {T[]} list
 * @returns {T}
 */
const pick = (rand, list) => list[Math.floor(rand() * list.length)];

const FAILURES = [
  'ElementNotFound: "Claim" button not visible after 30 s',
  'TimeoutError: screen did not change within 60000 ms',
  'ADB connection lost (device offline)',
  'ProxyError: tunnel connection failed: 407 Proxy Authentication Required',
  'Traceback (most recent call last):\n  File "src/app.py", line 88, in <module>\n    main()\n  File "src/app.py", line 71, in main\n    claim_daily(ctx)\n  File "src/tasks/daily.py", line 23, in claim_daily\n    ctx.tap_image("claim.png", timeout=30)\n  File "/runner/lib/vision.py", line 140, in tap_image\n    raise ImageNotFound(name, best_score)\nvision.ImageNotFound: claim.png (best match 0.61 < 0.85)',
  'OCRError: could not read balance from region [120, 300, 960, 420]',
  'App crashed: com.example.game (SIGSEGV)',
];
const COUNTRIES = ['US', 'DE', 'GB', 'FR', 'BR', 'IN', 'JP', 'NL', 'CA', 'PL'];

/**
 * One user's runs, oldest first, each row as ExecutionReporter.create and .update leave it:
 * macro and device snapshot, duration_ms = ended_at − started_at, outcome fields only on
 * ended runs, created_at when the first report arrived, updated_at when the last one did.
 * @param {{ userId: number, count: number, devices: import('./fixtures.js').BenchDevice[], macros: import('./fixtures.js').BenchMacro[], from: number, to: number, rand: Rand }} user
 */
export function* runsOf({ userId, count, devices, macros, from, to, rand }) {
  const step = (to - from) / count;
  for (let i = 0; i < count; i++) {
    const startedAt = Math.floor(from + i * step + rand() * step);
    const device = pick(rand, devices);
    const macro = pick(rand, macros);
    const r = rand();
    const status = r < 0.9 ? 'completed' : r < 0.95 ? 'failed' : r < 0.99 ? 'stopped' : 'running';
    let duration = null;
    let exitCode = null;
    let errorMessage = null;
    if (status === 'completed') {
      duration = 20_000 + Math.floor(rand() * rand() * 1_200_000);
      exitCode = 0;
    } else if (status === 'failed') {
      duration = 2_000 + Math.floor(rand() * 600_000);
      exitCode = pick(rand, [1, 1, 1, 2, 137]);
      errorMessage = pick(rand, FAILURES);
    } else if (status === 'stopped') {
      duration = 10_000 + Math.floor(rand() * 1_800_000);
      if (rand() < 0.5) {
        exitCode = 143;
        errorMessage = 'Stopped by user';
      }
    }
    const proxied = rand() < 0.4;
    const createdAt = startedAt + 40 + Math.floor(rand() * 400);
    const endedAt = duration === null ? null : startedAt + duration;
    yield {
      user_id: userId,
      execution_id: executionIdOf(rand, userId, i),
      status,
      macro_id: macro.id,
      macro_name: macro.name,
      device_id: device.id,
      device_name: device.name,
      device_port: device.port ?? null,
      group_id: device.group_id ?? null,
      execution_type: macro.kind,
      started_at: startedAt,
      ended_at: endedAt,
      duration_ms: duration,
      exit_code: exitCode,
      error_message: errorMessage,
      proxy_exit_ip: proxied ? `${pick(rand, [23, 45, 78, 91, 104, 185, 212])}.${Math.floor(rand() * 256)}.${Math.floor(rand() * 256)}.${1 + Math.floor(rand() * 254)}` : null,
      proxy_country: proxied ? pick(rand, COUNTRIES) : null,
      created_at: createdAt,
      updated_at: endedAt === null ? createdAt : endedAt + 40 + Math.floor(rand() * 400),
    };
  }
}

/** Two users' runs merged into one stream in start order, as the service receives them. */
/**
 * @template {{ started_at: number }} T
 * @param {Iterator<T>} a
 * @param {Iterator<T>} b
 * @returns {Generator<T>}
 */
export function* mergeByStart(a, b) {
  let x = a.next();
  let y = b.next();
  while (!x.done || !y.done) {
    if (y.done || (!x.done && x.value.started_at <= y.value.started_at)) {
      yield x.value;
      x = a.next();
    } else {
      yield y.value;
      y = b.next();
    }
  }
}

const LOG_MESSAGES = [
  'tap (540, 1184) on "Continue"',
  'wait_for image "reward_chest.png" matched 0.93',
  'swipe (540,1600)->(540,400) in 350 ms',
  'ocr [120,300,960,420] -> "Daily bonus x3"',
  'screen state: home_feed (confidence 0.97)',
  'sleep 1500 ms before next action',
  'GET https://api.example.net/v1/quests 200 212ms',
  'element "Skip" not found, retrying (2/5)',
  'loop 14/50: collected 3 items, energy 41',
  'proxy exit 185.22.93.17 (NL), latency 48 ms',
];
const LOG_LEVELS = ['INFO', 'INFO', 'INFO', 'DEBUG', 'WARN'];

/** Log line number `n` (run-wide, from 1), ~80 characters; the number is readable back. */
/**
 * @param {number} n
 * @param {number} at when it was logged (ms since the epoch)
 */
export function logLine(n, at) {
  return `${new Date(at).toISOString()} ${LOG_LEVELS[n % LOG_LEVELS.length]} #${n} ${LOG_MESSAGES[(n * 7) % LOG_MESSAGES.length]}`;
}
/** @param {string} line */
export const lineNumber = (line) => {
  const match = / #(\d+) /.exec(line);
  if (!match) throw new Error(`unexpected log line: ${line}`);
  return Number(match[1]);
};
