// Kept until the parallel branches merge; removed then. Paging lives in core/paging.ts.
export * from '../core/paging.js';
