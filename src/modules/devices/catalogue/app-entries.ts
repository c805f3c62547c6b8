// The catalogue's app actions: which apps are installed, open one, close one.
import { Type } from 'typebox';
import { defineEntry, PackageName, strict } from './entry.js';

export const APP_ENTRIES = [
  defineEntry({
    name: 'app_list',
    title: 'List installed apps',
    description: 'The apps installed on the device: package, label and version.',
    input: strict({}),
    output: Type.Object({ items: Type.Array(Type.Object({ package: Type.String(), label: Type.String(), version_name: Type.String() })) }),
    readOnly: true,
    async run(env) {
      const items = await env.driver.listApps();
      return { data: { items }, text: `${items.length} apps` };
    },
  }),
  defineEntry({
    name: 'app_open',
    title: 'Open an app',
    description: 'Brings an installed app to the front (its last screen if it was running).',
    input: strict({ package: PackageName }),
    async run(env, input) {
      await env.driver.openApp(input.package);
      return { text: `Opened ${input.package}.` };
    },
  }),
  defineEntry({
    name: 'app_close',
    title: 'Close an app',
    description: 'Force-stops an app: its screens and unsaved field contents are gone.',
    input: strict({ package: PackageName }),
    destructive: true,
    async run(env, input) {
      await env.driver.closeApp(input.package);
      return { text: `Closed ${input.package}.` };
    },
  }),
];
