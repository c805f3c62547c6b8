// @ts-check
// The history benchmark's settings: its goals, its time units and its command-line options
// (described at the top of bench/history.js).
import { parseArgs } from 'node:util';
import { checkEngine } from '../lib.js';

export const HISTORY_GOAL_MS = 50;
export const LOG_GOAL_MS = 20;
export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;
/** The last batches of the log run go through the service's own appendLogBatch. */
export const APPENDED_BY_SERVICE = 10;

/** @typedef {ReturnType<typeof options>} HistoryOptions */

/** Reads and checks the command line; any bad value stops the run with a sentence. */
export function options() {
  const { values } = parseArgs({
    options: {
      engine: { type: 'string', default: 'sqlite' },
      samples: { type: 'string', default: '30' },
      warmup: { type: 'string', default: '5' },
      runs: { type: 'string', default: '1000000' },
      'other-runs': { type: 'string', default: '100000' },
      'log-batches': { type: 'string', default: '10000' },
      'batch-lines': { type: 'string', default: '100' },
      'skip-analyze': { type: 'boolean', default: false },
      'no-vacuum': { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
    },
  });
  /**
   * @param {'samples' | 'warmup' | 'runs' | 'other-runs' | 'log-batches' | 'batch-lines'} name
   * @param {number} min
   */
  const integer = (name, min, max = Number.MAX_SAFE_INTEGER) => {
    const value = Number(values[name]);
    if (!Number.isInteger(value) || value < min || value > max) throw new Error(`--${name} must be an integer from ${min} to ${max}, got "${values[name]}"`);
    return value;
  };
  checkEngine(values.engine);
  const opts = {
    engine: /** @type {'sqlite' | 'postgres'} */ (values.engine),
    samples: integer('samples', 1),
    warmup: integer('warmup', 0),
    runs: integer('runs', 1000),
    otherRuns: integer('other-runs', 0),
    logBatches: integer('log-batches', APPENDED_BY_SERVICE + 10),
    batchLines: integer('batch-lines', 1, 1000),
    skipAnalyze: values['skip-analyze'],
    vacuum: !values['no-vacuum'],
    keep: values.keep,
  };
  if (opts.runs !== 1_000_000) console.warn(`warning: --runs ${opts.runs}: the issue's goals are set for 1,000,000 runs`);
  return opts;
}
