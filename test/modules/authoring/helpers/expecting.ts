// A scripted step that first checks what the model read last. A failed check cannot throw
// inside the scripted server (the agent would only see an endpoint error), so it is noted and
// the step answers an endpoint error; after each test the notes must be empty.
import { afterEach, expect } from 'vitest';
import { lastToolResult, type ReceivedRequest } from './scripted-model.js';

type Step = { calls: { name: string; args?: Record<string, unknown> }[]; tokens?: number };
export type Expecting = (check: (result: string, request: ReceivedRequest) => void, next: Step) => (request: ReceivedRequest) => Step | { status: number; error: string };

/** Registers the after-each check in the calling file and answers the step maker. */
export function useExpecting(): Expecting {
  const surprises: string[] = [];
  afterEach(() => {
    expect(surprises.splice(0)).toEqual([]);
  });
  return (check, next) => (request) => {
    try {
      check(lastToolResult(request), request);
      return next;
    } catch (error) {
      surprises.push(`${(error as Error).message}\n  the model read: ${lastToolResult(request).slice(0, 2000)}`);
      return { status: 500, error: 'unexpected input' };
    }
  };
}
