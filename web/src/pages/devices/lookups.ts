// Names for the ids in device rows and choices for the forms: the user's groups and macros,
// every page of each.
import type { DeviceGroup, Macro } from '../../api/types';
import { useAsync } from '../../lib/use-async';
import { allMacros } from '../macros/macros-api';
import { allGroups } from './devices-api';

export interface Lookups {
  groups: DeviceGroup[];
  macros: Macro[];
  groupName(id: number | undefined): string | undefined;
  macroName(id: number | undefined): string | undefined;
}

export async function loadGroups(): Promise<DeviceGroup[]> {
  return allGroups({ sort: 'name' });
}

export async function loadMacros(): Promise<Macro[]> {
  return allMacros();
}

export function useLookups(): Lookups & { reload(): void } {
  const groups = useAsync(loadGroups, []);
  const macros = useAsync(loadMacros, []);
  const g = groups.data ?? [];
  const m = macros.data ?? [];
  return {
    groups: g,
    macros: m,
    groupName: (id) => (id === undefined ? undefined : (g.find((x) => x.id === id)?.name ?? `Group ${id}`)),
    macroName: (id) => (id === undefined ? undefined : (m.find((x) => x.id === id)?.name ?? `macro ${id}`)),
    reload: () => {
      groups.reload();
      macros.reload();
    },
  };
}
