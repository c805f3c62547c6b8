export function MacrosPage() { return null; }
