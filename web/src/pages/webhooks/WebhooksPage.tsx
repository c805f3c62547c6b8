export function WebhooksPage() { return null; }
