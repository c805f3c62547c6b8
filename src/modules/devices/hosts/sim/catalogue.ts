// The apps a simulated device knows how to show: the built-in ones (the Corner Shop and
// Daily Feed demos, and Settings), any extra descriptions the host was given, and a plain placeholder for an
// app installed from an APK that has no description (the simulator cannot run its code).
import { cornerShop } from './apps/corner-shop/index.js';
import { dailyFeed } from './apps/daily-feed/index.js';
import { systemSettings } from './apps/settings/index.js';
import { parseSimApp, type SimApp } from './app-schema.js';
import type { SimInstalledApp } from './state.js';
import { onFirstUse } from '../../../../lib/on-first-use.js';

export const DEMO_APP_PACKAGE = 'com.example.shop';

export interface SimCatalogue {
  /** Installed on every new simulated device. */
  preinstalled: SimInstalledApp[];
  /** The description of an installed app: its own, or the placeholder for a bare APK. */
  appFor(installed: SimInstalledApp): SimApp;
}

function placeholderApp(app: SimInstalledApp): SimApp {
  const rid = (id: string) => `${app.package}:id/${id}`;
  return {
    package: app.package,
    label: app.label,
    screens: [
      {
        id: 'main',
        title: app.label,
        activity: `${app.package}.MainActivity`,
        elements: [
          { id: 'toolbar', class: 'android.view.ViewGroup', text: '', resource_id: rid('toolbar'), content_desc: '', bounds: { left: 0, top: 84, right: 1080, bottom: 252 }, clickable: false, editable: false },
          { id: 'title', class: 'android.widget.TextView', text: app.label, resource_id: rid('title'), content_desc: '', bounds: { left: 48, top: 126, right: 780, bottom: 210 }, clickable: false, editable: false },
          {
            id: 'message',
            class: 'android.widget.TextView',
            text: `${app.label} ${app.version_name} is installed. This simulated phone shows its name only: it cannot run the app's own code. Use an adb device host to run real apps.`,
            resource_id: rid('message'),
            content_desc: '',
            bounds: { left: 48, top: 330, right: 1032, bottom: 700 },
            clickable: false,
            editable: false,
          },
        ],
      },
    ],
  };
}

/** The apps every simulated device has (before SIM_EXTRA_APPS and SIM_APPS_DIR). */
export const BUILTIN_APPS: readonly unknown[] = [cornerShop, dailyFeed, systemSettings];

let builtins: SimApp[] | undefined;

/** The built-in apps, checked once per process (Daily Feed's feed alone is 600 elements). */
function builtinApps(): SimApp[] {
  builtins ??= BUILTIN_APPS.map((raw) => parseSimApp(raw));
  return builtins;
}

/**
 * `extraApps` are more app descriptions (JSON as in §9); each is checked now, and a bad one
 * throws. The built-in ones are checked when a simulated device first needs them: about 0.1 s
 * that a start does not wait for (issue 34 point 4).
 */
export function createSimCatalogue(extraApps: unknown[] = []): SimCatalogue {
  const extras = extraApps.map((raw) => parseSimApp(raw));
  const described = onFirstUse(() => new Map([...builtinApps(), ...extras].map((app) => [app.package, app])));
  const preinstalled = onFirstUse(() =>
    [...described().values()].map(
      (app): SimInstalledApp => ({ package: app.package, label: app.label, version_name: app.version_name ?? '1.0', version_code: app.version_code ?? 1, source: 'builtin' }),
    ),
  );
  return {
    get preinstalled() {
      return preinstalled();
    },
    appFor: (installed) => described().get(installed.package) ?? placeholderApp(installed),
  };
}

/** The demo app's description (Corner Shop), as a simulated device shows it. */
export function demoApp(): SimApp {
  return parseSimApp(cornerShop);
}
