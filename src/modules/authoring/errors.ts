// The authoring agent's own refusals (decisions.md §1), each carrying its status and code.
import { AppError, ConflictError } from '../../core/errors.js';

/** 503 `authoring_unavailable`: no model endpoint is configured (AUTHOR_LLM_URL). */
export class AuthoringUnavailableError extends AppError {
  constructor() {
    super(503, 'authoring_unavailable', HOW_TO_CONFIGURE);
  }
}

export const HOW_TO_CONFIGURE =
  'The authoring agent is not available: this server has no model endpoint configured. The operator sets AUTHOR_LLM_URL to an OpenAI-compatible chat-completions endpoint (for example http://127.0.0.1:11434/v1 for Ollama), with AUTHOR_LLM_MODEL and, for hosted models, AUTHOR_LLM_API_KEY; see docs/authoring.md.';

/** 402 `credits_exhausted`: the account's AI credits for this calendar month are used up. */
export class CreditsExhaustedError extends AppError {
  constructor(limit: number, periodEnd: string) {
    super(402, 'credits_exhausted', `This account has used its ${limit} AI credits for this month; more are available from ${periodEnd}, or the operator can raise the allowance.`, { limit });
  }
}

/** 409 `not_waiting`: an answer to a session that asked nothing. */
export class NotWaitingError extends ConflictError {
  constructor(state: string) {
    super('not_waiting', `This session is ${state} and has not asked anything; answer only while it is waiting_for_answer.`);
  }
}
