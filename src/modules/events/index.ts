// The events module's front door: the one way to record an event.
export { emitEvent, type EventType, type NewEvent, type RecordedEvent, subscribeToEvents } from './emit.js';
