// In-process wake-up for delivery workers: the fan-out rings it when it queues deliveries,
// so a worker in this process starts at once instead of at its next poll. Workers in other
// processes find the work by polling (WEBHOOK_POLL_MS).
import { EventEmitter } from 'node:events';

const bell = new EventEmitter();
bell.setMaxListeners(0);

export function ringDeliveryBell(): void {
  bell.emit('due');
}

export function onDeliveryBell(listener: () => void): () => void {
  bell.on('due', listener);
  return () => bell.off('due', listener);
}
