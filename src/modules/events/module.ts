// Builds the events module from what reacts to events. build-modules.ts hands it its
// subscribers (webhooks' delivery fan-out) and hands its `emit` to the modules that record
// events, so the path from a change to what it sets off reads in that one file.
import type { BuiltModule } from '../../http/module.js';
import { type EmitEvent, type EventSubscriber, eventEmitter } from './emit.js';

export interface EventsModuleDeps {
  /** Run in order, inside the recording transaction, for every event this module's `emit` records. */
  subscribers: readonly EventSubscriber[];
}

export interface EventsServices {
  emit: EmitEvent;
}

export function buildEventsModule(deps: EventsModuleDeps): BuiltModule<EventsServices> {
  return { routes: async () => {}, services: { emit: eventEmitter(deps.subscribers) } };
}
