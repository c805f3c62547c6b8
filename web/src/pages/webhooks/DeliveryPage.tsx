export function DeliveryPage() { return null; }
