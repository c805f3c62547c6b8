// The webhooks module's settings (docs/webhooks.md, docs/configuration.md), composed by
// config.ts with the rest: the retry schedule, when a failing endpoint is disabled, and how a
// delivery worker polls and how many deliveries it sends at once. The address policy
// (WEBHOOK_ALLOW_PRIVATE_NETWORKS) is named after webhooks and also holds proxy checks.
import { ConfigError } from '../lib/config-error.js';
import { boolean, type Env, integer } from '../lib/env-settings.js';

export interface WebhooksSettings {
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: lets webhooks and proxy checks reach private addresses (development, tests). */
  allowPrivateNetworks: boolean;
  /** WEBHOOK_RETRY_SCHEDULE: seconds before each webhook attempt; the first entry is 0 (at once), one entry per attempt. */
  webhookRetrySchedule: number[];
  /** WEBHOOK_DISABLE_AFTER_FAILURES: an endpoint is disabled when its failure streak reaches this many attempts… */
  webhookDisableAfterFailures: number;
  /** WEBHOOK_DISABLE_AFTER_HOURS (as ms): …and the streak's first failure is at least this old. */
  webhookDisableAfterMs: number;
  /** WEBHOOK_POLL_MS: how often an idle webhook worker looks for due deliveries. */
  webhookPollMs: number;
  /** WEBHOOK_CONCURRENCY: deliveries one worker process sends at the same time. */
  webhookConcurrency: number;
}

/** Comma-separated whole seconds; the first attempt is at once, so the list starts with 0. */
function retrySchedule(env: Env, name: string, fallback: string): number[] {
  const raw = (env[name] || fallback).trim();
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.some((part) => !/^\d+$/.test(part))) throw new ConfigError(name, `expected comma-separated whole seconds, got "${raw}"`);
  const delays = parts.map(Number);
  if (delays.length > 50) throw new ConfigError(name, 'at most 50 attempts');
  if (delays[0] !== 0) throw new ConfigError(name, 'must start with 0 (the first attempt is made at once)');
  if (delays.some((delay) => delay > 7 * 86_400)) throw new ConfigError(name, 'each delay must be at most 604800 seconds (7 days)');
  return delays;
}

export function webhooksSettings(env: Env): WebhooksSettings {
  return {
    webhookRetrySchedule: retrySchedule(env, 'WEBHOOK_RETRY_SCHEDULE', '0,5,300,1800,7200,18000,36000,36000'),
    webhookDisableAfterFailures: integer(env, 'WEBHOOK_DISABLE_AFTER_FAILURES', 20, 1, 1_000_000),
    webhookDisableAfterMs: integer(env, 'WEBHOOK_DISABLE_AFTER_HOURS', 24, 0, 8760) * 3_600_000,
    webhookPollMs: integer(env, 'WEBHOOK_POLL_MS', 500, 10, 600_000),
    webhookConcurrency: integer(env, 'WEBHOOK_CONCURRENCY', 32, 1, 1000),
    allowPrivateNetworks: boolean(env, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS', false),
  };
}
