// The recorder module's front door (decisions.md §18).
export { buildRecorderModule, type RecorderServices } from './module.js';
