// Which page answers which path. Pages other than sign-in and the overview load on first
// visit (their own chunks), which keeps the first load of `/` small.
import { type ComponentType, lazy } from 'react';

export interface PageRoute {
  pattern: string;
  title: string;
  page: ComponentType<{ params: Record<string, string> }>;
}

const ApiKeysPage = lazy(() => import('../pages/keys/ApiKeysPage').then((m) => ({ default: m.ApiKeysPage })));
const MacrosPage = lazy(() => import('../pages/macros/MacrosPage').then((m) => ({ default: m.MacrosPage })));
const MacroPage = lazy(() => import('../pages/macros/MacroPage').then((m) => ({ default: m.MacroPage })));
const DevicesPage = lazy(() => import('../pages/devices/DevicesPage').then((m) => ({ default: m.DevicesPage })));
const GroupsPage = lazy(() => import('../pages/devices/GroupsPage').then((m) => ({ default: m.GroupsPage })));
const RunsPage = lazy(() => import('../pages/runs/RunsPage').then((m) => ({ default: m.RunsPage })));
const RunPage = lazy(() => import('../pages/runs/RunPage').then((m) => ({ default: m.RunPage })));
const WebhooksPage = lazy(() => import('../pages/webhooks/WebhooksPage').then((m) => ({ default: m.WebhooksPage })));
const DeliveryPage = lazy(() => import('../pages/webhooks/DeliveryPage').then((m) => ({ default: m.DeliveryPage })));
const ProxiesPage = lazy(() => import('../pages/proxies/ProxiesPage').then((m) => ({ default: m.ProxiesPage })));
const AccountPage = lazy(() => import('../pages/account/AccountPage').then((m) => ({ default: m.AccountPage })));
const OverviewPage = lazy(() => import('../pages/overview/OverviewPage').then((m) => ({ default: m.OverviewPage })));

export const ROUTES: PageRoute[] = [
  { pattern: '/', title: 'Overview', page: OverviewPage },
  { pattern: '/keys', title: 'API keys', page: ApiKeysPage },
  { pattern: '/macros', title: 'Macros', page: MacrosPage },
  { pattern: '/macros/:id', title: 'Macro', page: MacroPage },
  { pattern: '/devices', title: 'Devices', page: DevicesPage },
  { pattern: '/groups', title: 'Groups', page: GroupsPage },
  { pattern: '/runs', title: 'Run history', page: RunsPage },
  { pattern: '/runs/:id', title: 'Run', page: RunPage },
  { pattern: '/webhooks', title: 'Webhooks', page: WebhooksPage },
  { pattern: '/webhooks/deliveries/:id', title: 'Delivery', page: DeliveryPage },
  { pattern: '/proxies', title: 'Proxies', page: ProxiesPage },
  { pattern: '/account', title: 'Plan and account', page: AccountPage },
];
