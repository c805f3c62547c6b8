export function ProxiesPage() { return null; }
