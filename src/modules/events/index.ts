// The events module's front door: built with its subscribers, it hands out the one way to record an event.
export type { EmitEvent, EventSubscriber, RecordedEvent } from './emit.js';
export { buildEventsModule } from './module.js';
export { eventPayload } from './payloads.js';
