// The home screen, built from the installed apps each time it is shown: a clock, the date,
// one icon per app (a tap opens it) and a search bar, like a stock Android launcher.
import type { SimApp, SimElement } from './app-schema.js';
import { LAUNCHER_ACTIVITY, LAUNCHER_PACKAGE, type SimInstalledApp } from './state.js';

const COLUMNS = 4;
const CELL_WIDTH = 270;
const CELL_HEIGHT = 300;
const GRID_BOTTOM = 2100;
const MAX_ROWS = 5;

export const LAUNCHER_IDS = {
  clock: `${LAUNCHER_PACKAGE}:id/clock`,
  date: `${LAUNCHER_PACKAGE}:id/date`,
  icon: `${LAUNCHER_PACKAGE}:id/icon`,
  search: `${LAUNCHER_PACKAGE}:id/search_container`,
} as const;

function element(id: string, cls: string, text: string, resourceId: string, bounds: SimElement['bounds'], extra: Partial<SimElement> = {}): SimElement {
  return { id, class: cls, text, resource_id: resourceId, content_desc: '', bounds, clickable: false, editable: false, ...extra };
}

export function launcherApp(installed: SimInstalledApp[], clock: { time: string; date: string }): SimApp {
  const apps = [...installed].sort((a, b) => a.label.localeCompare(b.label)).slice(0, COLUMNS * MAX_ROWS);
  const rows = Math.ceil(apps.length / COLUMNS);
  const icons = apps.map((app, i) => {
    const left = (i % COLUMNS) * CELL_WIDTH;
    const top = GRID_BOTTOM - (rows - Math.floor(i / COLUMNS)) * CELL_HEIGHT;
    return element(`app_${i}`, 'android.widget.TextView', app.label, LAUNCHER_IDS.icon, { left, top, right: left + CELL_WIDTH, bottom: top + CELL_HEIGHT - 20 }, {
      content_desc: app.label,
      clickable: true,
      to: `package:${app.package}`,
    });
  });
  return {
    package: LAUNCHER_PACKAGE,
    label: 'Launcher',
    screens: [
      {
        id: 'home',
        title: 'Home',
        activity: LAUNCHER_ACTIVITY,
        elements: [
          element('clock', 'android.widget.TextClock', clock.time, LAUNCHER_IDS.clock, { left: 60, top: 300, right: 1020, bottom: 560 }),
          element('date', 'android.widget.TextView', clock.date, LAUNCHER_IDS.date, { left: 60, top: 570, right: 1020, bottom: 650 }),
          ...icons,
          element('search', 'android.widget.FrameLayout', 'Search', LAUNCHER_IDS.search, { left: 60, top: 2140, right: 1020, bottom: 2284 }, { content_desc: 'Search' }),
        ],
      },
    ],
  };
}
