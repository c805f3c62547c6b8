// What one tool call answers: the text the model reads, the short account kept as a `tool`
// message (a screenshot as its size, never its bytes), and what it changes in the session.
import type { ProjectFile } from './project-files.js';

export interface ToolOutcome {
  /** The tool result the model reads. */
  content: string;
  /** The short account in the session's messages. */
  summary: string;
  isError?: boolean;
  /** A screenshot the model is shown in the next message. */
  screenshot?: { base64: string; caption: string };
  /** The project after a file_write. */
  files?: ProjectFile[];
  /** ask_user: the question; the session waits for the answer. */
  ask?: string;
  /** finish: the summary; the session ends done. */
  finish?: string;
}

export const toolError = (message: string): ToolOutcome => ({ content: `Error: ${message}`, summary: `error: ${message}`, isError: true });
