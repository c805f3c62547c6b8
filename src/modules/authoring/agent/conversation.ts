// The chat as it is kept between steps (the session's `conversation`): the endpoint's
// messages after the system prompt. Only the newest screenshot stays as an image; older
// ones become a line of text, so the stored chat and every prompt stay small.
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';

export type ChatMessage = ChatCompletionMessageParam;

export const parseConversation = (text: string) => JSON.parse(text) as ChatMessage[];

/** The chat after the person's answer to the `ask_user` call `callId`. */
export function answerMessage(conversation: string, callId: string | null, answer: string): string {
  const chat = parseConversation(conversation);
  chat.push(callId ? { role: 'tool', tool_call_id: callId, content: `The person answered: ${answer}` } : { role: 'user', content: answer });
  return JSON.stringify(chat);
}

const EARLIER_SCREENSHOT = '[an earlier screenshot, no longer shown]';

/** Adds a screenshot for the model to see, turning earlier ones into text. */
export function withScreenshot(chat: ChatMessage[], jpegBase64: string, caption: string): ChatMessage[] {
  const older = chat.map((m): ChatMessage => {
    if (m.role !== 'user' || typeof m.content === 'string') return m;
    return { role: 'user', content: m.content.map((part) => (part.type === 'image_url' ? { type: 'text' as const, text: EARLIER_SCREENSHOT } : part)) };
  });
  older.push({ role: 'user', content: [{ type: 'text', text: caption }, { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${jpegBase64}` } }] });
  return older;
}
