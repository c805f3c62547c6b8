// The pool shared across threads (decision 0025): the runs thread does not start a pool of its
// own but sends its matches over a MessagePort to the thread that owns the process's pool
// (the API's), which runs them there and posts the answers back. Only the message handling is
// on the owner's loop (a copy of the pictures, well under a millisecond); OpenCV runs on the
// pool's threads.
import type { MessagePort } from 'node:worker_threads';
import type { GrayImage } from './gray-image.js';
import { addTrace, type TemplateMatcher } from './match-pool.js';
import { emptyTrace, type MatchOptions, type MatchTrace, type TemplateMatch } from './template-match.js';
import { fromWire, toWire, type WireError } from './wire-errors.js';

type Request = { id: number; screen: GrayImage; template: GrayImage; options: MatchOptions };
type Reply = { id: number; matches: TemplateMatch[]; trace: MatchTrace } | { id: number; error: WireError };

/** The owner's side: answers every request arriving on `port` with `matcher`. */
export function serveMatches(port: MessagePort, matcher: TemplateMatcher): void {
  port.on('message', (request: Request) => {
    const trace = emptyTrace();
    matcher.match(request.screen, request.template, request.options, trace).then(
      (matches) => port.postMessage({ id: request.id, matches, trace } satisfies Reply),
      (error: unknown) => port.postMessage({ id: request.id, error: toWire(error) } satisfies Reply),
    );
  });
}

/** The asking side: a matcher whose work is done by the owner of the other end of `port`. */
export class PortMatcher implements TemplateMatcher {
  private next = 1;
  private readonly pending = new Map<number, { resolve: (reply: Reply) => void }>();

  constructor(private readonly port: MessagePort) {
    port.on('message', (reply: Reply) => {
      this.pending.get(reply.id)?.resolve(reply);
      this.pending.delete(reply.id);
    });
    // Waiting for an answer keeps the thread alive; an idle port must not.
    port.unref();
  }

  async match(screen: GrayImage, template: GrayImage, options: MatchOptions, trace?: MatchTrace): Promise<TemplateMatch[]> {
    const id = this.next++;
    const answered = new Promise<Reply>((resolve) => this.pending.set(id, { resolve }));
    if (this.pending.size === 1) this.port.ref();
    this.port.postMessage({ id, screen, template, options } satisfies Request);
    const reply = await answered.finally(() => {
      if (this.pending.size === 0) this.port.unref();
    });
    if ('error' in reply) throw fromWire(reply.error);
    addTrace(trace, reply.trace);
    return reply.matches;
  }
}
