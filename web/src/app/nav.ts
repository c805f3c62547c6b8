// The navigation, in one list. A page that arrives with a later issue (schedules, maps,
// authoring) is one more entry here and one in routes.tsx.
import type { ComponentType } from 'react';
import { CodeIcon, DeviceIcon, GroupIcon, HistoryIcon, HomeIcon, KeyIcon, ProxyIcon, UserIcon, WebhookIcon } from '../components/icons';

export interface NavItem {
  label: string;
  to: string;
  icon: ComponentType<{ size?: number }>;
  /** Also active on paths under it (e.g. /macros/12). */
  prefix?: boolean;
}

export interface NavSection {
  title: string | null;
  items: NavItem[];
}

export const NAV: NavSection[] = [
  { title: null, items: [{ label: 'Overview', to: '/', icon: HomeIcon }] },
  {
    title: 'Automate',
    items: [
      { label: 'Macros', to: '/macros', icon: CodeIcon, prefix: true },
      { label: 'Run history', to: '/runs', icon: HistoryIcon, prefix: true },
    ],
  },
  {
    title: 'Devices',
    items: [
      { label: 'Devices', to: '/devices', icon: DeviceIcon, prefix: true },
      { label: 'Groups', to: '/groups', icon: GroupIcon, prefix: true },
    ],
  },
  {
    title: 'Integrations',
    items: [
      { label: 'Webhooks', to: '/webhooks', icon: WebhookIcon, prefix: true },
      { label: 'Proxies', to: '/proxies', icon: ProxyIcon, prefix: true },
      { label: 'API keys', to: '/keys', icon: KeyIcon },
    ],
  },
  { title: 'Account', items: [{ label: 'Plan and account', to: '/account', icon: UserIcon }] },
];

export function isActive(item: NavItem, path: string): boolean {
  if (item.to === '/') return path === '/';
  return path === item.to || (item.prefix === true && path.startsWith(`${item.to}/`));
}
