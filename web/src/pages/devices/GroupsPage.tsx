export function GroupsPage() { return null; }
