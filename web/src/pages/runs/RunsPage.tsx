export function RunsPage() { return null; }
