// Kept until the parallel branches merge; removed then. The schema helpers live in core/schema.ts.
export * from '../core/schema.js';
