// Kept until the parallel branches merge; removed then. The error types live in core/errors.ts.
export * from '../core/errors.js';
