// The areas of the console, in the order the navigation shows them: each entry is a page's
// label, path, icon and the page itself (loaded on its first visit, its own chunk, so the
// first load of `/` does not grow). An area that arrives with a later issue (authoring, a
// marketplace) is one more entry here; routes.tsx adds the
// pages under an area (`/macros/:id`) and matches paths.
import { type ComponentType, lazy } from 'react';
import { CodeIcon, DeviceIcon, GroupIcon, HistoryIcon, ImageIcon, MapIcon, HomeIcon, KeyIcon, ProxyIcon, SparkIcon, StoreIcon, UserIcon, WebhookIcon } from '../components/icons';

export type PageComponent = ComponentType<{ params: Record<string, string> }>;

/** A page component from its module, fetched when the page is first shown. */
export function lazyPage<K extends string>(load: () => Promise<Record<K, PageComponent>>, name: K): PageComponent {
  return lazy(() => load().then((module): { default: PageComponent } => ({ default: module[name] })));
}

export interface NavItem {
  label: string;
  to: string;
  icon: ComponentType<{ size?: number }>;
  page: PageComponent;
  /** Also active on paths under it (e.g. /macros/12). */
  prefix?: boolean;
}

export interface NavSection {
  title: string | null;
  items: NavItem[];
}

export const NAV: NavSection[] = [
  { title: null, items: [{ label: 'Overview', to: '/', icon: HomeIcon, page: lazyPage(() => import('../pages/overview/OverviewPage'), 'OverviewPage') }] },
  {
    title: 'Automate',
    items: [
      { label: 'Macros', to: '/macros', icon: CodeIcon, prefix: true, page: lazyPage(() => import('../pages/macros/MacrosPage'), 'MacrosPage') },
      { label: 'Run history', to: '/runs', icon: HistoryIcon, prefix: true, page: lazyPage(() => import('../pages/runs/RunsPage'), 'RunsPage') },
      { label: 'Authoring agent', to: '/authoring', icon: SparkIcon, prefix: true, page: lazyPage(() => import('../pages/authoring/AuthoringPage'), 'AuthoringPage') },
      { label: 'Schedules', to: '/schedules', icon: HistoryIcon, prefix: true, page: lazyPage(() => import('../pages/schedules/SchedulesPage'), 'SchedulesPage') },
      { label: 'Images', to: '/images', icon: ImageIcon, page: lazyPage(() => import('../pages/images/ImagesPage'), 'ImagesPage') },
      { label: 'Marketplace', to: '/marketplace', icon: StoreIcon, prefix: true, page: lazyPage(() => import('../pages/marketplace/MarketplacePage'), 'MarketplacePage') },
    ],
  },
  {
    title: 'Devices',
    items: [
      { label: 'Devices', to: '/devices', icon: DeviceIcon, prefix: true, page: lazyPage(() => import('../pages/devices/DevicesPage'), 'DevicesPage') },
      { label: 'Groups', to: '/groups', icon: GroupIcon, prefix: true, page: lazyPage(() => import('../pages/devices/GroupsPage'), 'GroupsPage') },
      { label: 'Menu maps', to: '/maps', icon: MapIcon, prefix: true, page: lazyPage(() => import('../pages/maps/MapsPage'), 'MapsPage') },
    ],
  },
  {
    title: 'Integrations',
    items: [
      { label: 'Webhooks', to: '/webhooks', icon: WebhookIcon, prefix: true, page: lazyPage(() => import('../pages/webhooks/WebhooksPage'), 'WebhooksPage') },
      { label: 'Proxies', to: '/proxies', icon: ProxyIcon, prefix: true, page: lazyPage(() => import('../pages/proxies/ProxiesPage'), 'ProxiesPage') },
      { label: 'API keys', to: '/keys', icon: KeyIcon, page: lazyPage(() => import('../pages/keys/ApiKeysPage'), 'ApiKeysPage') },
    ],
  },
  { title: 'Account', items: [{ label: 'Plan and account', to: '/account', icon: UserIcon, page: lazyPage(() => import('../pages/account/AccountPage'), 'AccountPage') }] },
];

export function isActive(item: NavItem, path: string): boolean {
  if (item.to === '/') return path === '/';
  return path === item.to || (item.prefix === true && path.startsWith(`${item.to}/`));
}
