// The model endpoint: any OpenAI-compatible chat-completions server (hosted, Ollama, vLLM,
// llama.cpp) through the maintained `openai` client pointed at AUTHOR_LLM_URL. The client's
// own retries are off, so "fails three times in a row" counts requests (decisions.md §13),
// and it reads nothing from the environment: every setting comes from our configuration.
import OpenAI from 'openai';
import type { ChatCompletionFunctionTool, ChatCompletionMessage, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { AuthoringSettings } from '../settings.js';

export interface ModelReply {
  message: ChatCompletionMessage;
  /** usage.total_tokens as the endpoint reports it; 0 when it reports none. */
  totalTokens: number;
}

export interface ModelClient {
  complete(messages: ChatCompletionMessageParam[], tools: ChatCompletionFunctionTool[], signal: AbortSignal): Promise<ModelReply>;
}

export class ModelReplyError extends Error {}

export function createModelClient(settings: AuthoringSettings): ModelClient | null {
  if (!settings.llmUrl) return null;
  const client = new OpenAI({
    baseURL: settings.llmUrl,
    // Local servers want no key; the client insists on a value, which they ignore.
    apiKey: settings.llmApiKey ?? 'no-key',
    organization: null,
    project: null,
    webhookSecret: null,
    maxRetries: 0,
    timeout: settings.llmTimeoutS * 1000,
  });
  return {
    async complete(messages, tools, signal) {
      const reply = await client.chat.completions.create({ model: settings.llmModel, messages, tools, tool_choice: 'auto' }, { signal });
      const message = reply.choices?.[0]?.message;
      if (!message) throw new ModelReplyError('the endpoint answered without a message (no choices)');
      return { message, totalTokens: Math.max(0, Math.floor(Number(reply.usage?.total_tokens ?? 0)) || 0) };
    },
  };
}
