export function MacroPage() { return null; }
