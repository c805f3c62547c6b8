// One thread of the matching pool (match-pool.ts): loads OpenCV's WebAssembly build once, at
// its first task, and runs the synchronous coarse-to-fine search (template-match.ts) there,
// so the thread that asked (the API's, the runs thread's) keeps answering meanwhile.
// A failure goes back as data (wire-errors.ts): a thrown error would lose its class and code.
import type { GrayImage } from './gray-image.js';
import { loadOpenCv } from './opencv.js';
import { emptyTrace, type MatchOptions, matchTemplateGray, type MatchTrace, type TemplateMatch } from './template-match.js';
import { toWire, type WireError } from './wire-errors.js';

export type MatchTask = { screen: GrayImage; template: GrayImage; options: MatchOptions } | { warm: true };
export type MatchAnswer = { matches: TemplateMatch[]; trace: MatchTrace } | { error: WireError } | { warm: true };

export default async function runMatchTask(task: MatchTask): Promise<MatchAnswer> {
  try {
    const cv = await loadOpenCv();
    if ('warm' in task) return { warm: true };
    const trace = emptyTrace();
    const matches = matchTemplateGray(cv, task.screen, task.template, task.options, trace);
    return { matches, trace };
  } catch (error) {
    return { error: toWire(error) };
  }
}
