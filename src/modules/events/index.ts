// The events module's front door: the one way to record an event.
export { emitEvent, type EventType, type NewEvent } from './emit.js';
