// The authoring module's settings (decisions.md §13), composed by config.ts with the rest. No
// AUTHOR_LLM_URL means authoring is off: its routes answer 503 `authoring_unavailable`.
import { ConfigError } from '../lib/config-error.js';
import { type Env, integer, url } from '../lib/env-settings.js';

export interface AuthoringSettings {
  /** AUTHOR_LLM_URL: the OpenAI-compatible endpoint's base URL (for example http://127.0.0.1:11434/v1). */
  llmUrl: string | undefined;
  /** AUTHOR_LLM_MODEL: the model name the endpoint knows. */
  llmModel: string;
  /** AUTHOR_LLM_API_KEY: sent as the bearer token; never logged, never in a prompt. */
  llmApiKey: string | undefined;
  /** AUTHOR_LLM_TIMEOUT_S: one model call's limit. */
  llmTimeoutS: number;
  /** AUTHOR_MAX_STEPS: model calls per session. */
  maxSteps: number;
  /** AUTHOR_MAX_MINUTES: working time per session. */
  maxMinutes: number;
  /** AUTHOR_CREDITS_PER_MONTH: an account's allowance unless the operator set its own. */
  creditsPerMonth: number;
}

export const DEFAULT_AUTHOR_MODEL = 'gpt-4o-mini';

export function authoringSettings(env: Env): AuthoringSettings {
  const model = env.AUTHOR_LLM_MODEL || DEFAULT_AUTHOR_MODEL;
  if (model.length > 200) throw new ConfigError('AUTHOR_LLM_MODEL', 'must be at most 200 characters');
  return {
    llmUrl: url(env, 'AUTHOR_LLM_URL', ['http:', 'https:'])?.replace(/\/+$/, ''),
    llmModel: model,
    llmApiKey: env.AUTHOR_LLM_API_KEY || undefined,
    llmTimeoutS: integer(env, 'AUTHOR_LLM_TIMEOUT_S', 120, 1, 3600),
    maxSteps: integer(env, 'AUTHOR_MAX_STEPS', 40, 1, 1000),
    maxMinutes: integer(env, 'AUTHOR_MAX_MINUTES', 20, 1, 1440),
    creditsPerMonth: integer(env, 'AUTHOR_CREDITS_PER_MONTH', 1000, 0, 1_000_000),
  };
}
