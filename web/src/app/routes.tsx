// Which page answers which path: every area's page from the navigation (nav.ts), and the
// pages under an area (one macro, one run, one delivery). Every page but sign-in loads on its
// first visit (its own chunk), which keeps the first load of `/` small.
import { lazyPage, NAV, type PageComponent } from './nav';

export interface PageRoute {
  pattern: string;
  title: string;
  page: PageComponent;
}

const PAGES_UNDER_AREAS: PageRoute[] = [
  { pattern: '/macros/:id', title: 'Macro', page: lazyPage(() => import('../pages/macros/MacroPage'), 'MacroPage') },
  { pattern: '/authoring/:id', title: 'Authoring session', page: lazyPage(() => import('../pages/authoring/SessionPage'), 'SessionPage') },
  { pattern: '/schedules/:id', title: 'Schedule', page: lazyPage(() => import('../pages/schedules/SchedulePage'), 'SchedulePage') },
  { pattern: '/runs/:id', title: 'Run', page: lazyPage(() => import('../pages/runs/RunPage'), 'RunPage') },
  { pattern: '/maps/:package', title: 'Menu map', page: lazyPage(() => import('../pages/maps/MapPage'), 'MapPage') },
  // `mine` before `:id`: the first pattern that matches wins.
  { pattern: '/marketplace/mine', title: 'My listings', page: lazyPage(() => import('../pages/marketplace/MyListingsPage'), 'MyListingsPage') },
  { pattern: '/marketplace/:id', title: 'Listing', page: lazyPage(() => import('../pages/marketplace/ListingPage'), 'ListingPage') },
  { pattern: '/webhooks/deliveries/:id', title: 'Delivery', page: lazyPage(() => import('../pages/webhooks/DeliveryPage'), 'DeliveryPage') },
];

export const ROUTES: PageRoute[] = [
  ...NAV.flatMap((section) => section.items).map((item) => ({ pattern: item.to, title: item.label, page: item.page })),
  ...PAGES_UNDER_AREAS,
];
