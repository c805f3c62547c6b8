export function DevicesPage() { return null; }
