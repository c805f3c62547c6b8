// Lint: typescript-eslint's recommended rules, plus the project's habits (no `any`,
// `import type` for types, no process.env outside src/config.ts), and the module boundaries
// of docs/decisions/0005-module-shape.md (eslint-plugin-boundaries).
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

/** The composition root: main.ts, app.ts, context.ts and config.ts, directly in src/ (config.ts is the settings' root, checked below). */
const ROOT = { file: { path: 'src/*.ts' } };
/** A layer that must not import the given entities. */
const layer = (from, forbidden, message) => ({ from: { element: { type: from } }, disallow: { to: forbidden }, message });

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'web/src/api/schema.d.ts', 'clients/typescript/dist/**', 'clients/typescript/src/generated/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', fetch: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', NodeJS: 'readonly' } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/config.ts'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read settings in src/config.ts and pass them down.' }],
    },
  },
  {
    // The layers and the front doors (docs/decisions/0005-module-shape.md). A module is
    // imported only through its index.ts; core imports no other layer; lib, db and http
    // import no module; nothing below the composition root (the files directly in src/)
    // imports it, except the Config type. test/architecture.test.ts checks the same rules
    // on the import graph and also refuses cycles between modules.
    files: ['src/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { [new URL('./eslint-resolver.cjs', import.meta.url).pathname]: {} },
      'boundaries/include': ['src/**/*.ts'],
      'boundaries/elements': [
        { type: 'core', pattern: 'src/core' },
        { type: 'lib', pattern: 'src/lib' },
        { type: 'db', pattern: 'src/db' },
        { type: 'http', pattern: 'src/http' },
        { type: 'config', pattern: 'src/config' },
        { type: 'module', pattern: 'src/modules/*', capture: ['name'] },
        { type: 'cli', pattern: 'src/cli' },
      ],
    },
    rules: {
      // Policies are read in order and the last one that matches decides.
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          // The composition root is no element (element patterns match folders), so it is
          // reached as an unknown local file by path.
          checkUnknownLocals: true,
          policies: [
            { disallow: { to: { element: { type: 'module' } } }, message: 'Import another module only through its index.ts (its front door).' },
            { allow: { to: { element: { type: 'module', fileInternalPath: 'index.ts' } } } },
            layer('core', [{ element: { type: ['lib', 'db', 'http', 'module'] } }, ROOT], 'core is transport-neutral and imports no other layer.'),
            layer('lib', [{ element: { type: ['http', 'module', 'config'] } }, ROOT], 'lib holds small helpers and imports no module and no HTTP code.'),
            layer('config', [{ element: { type: ['db', 'http', 'module', 'cli'] } }, ROOT], "A module's settings read only core and lib; config.ts composes them."),
            layer('db', [{ element: { type: ['http', 'module'] } }, ROOT], 'db imports no module and no HTTP code.'),
            layer('http', [{ element: { type: 'module' } }, ROOT], 'http imports no module: a module hands its guards and routes to app.ts.'),
            layer('module', [ROOT], 'A module receives what it needs from app.ts through its build function.'),
            layer('cli', [{ element: { type: ['core', 'db', 'http', 'module'] } }, ROOT], 'The key commands are clients of the public API: they use the SDK (#svc-client), not server code.'),
            // …but every layer above lib may read the settings.
            { from: { element: { type: ['db', 'http', 'module', 'cli'] } }, allow: { to: { file: { path: 'src/config.ts' } } } },
          ],
        },
      ],
    },
  },
  {
    // The composition root reaches modules through their front doors too.
    files: ['src/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['./modules/*/*', '!./modules/*/index.js'], message: 'Import a module only through its index.ts (its front door).' }] }],
    },
  },
  {
    // The settings' root composes each module's settings (config/) and imports no module (issue 34 point 3).
    files: ['src/config.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['./modules/*', './modules/**', './http/*', './db/*', './cli/*'], message: 'config.ts reads settings only: a module reads what it needs of them itself.' }] }],
    },
  },
  {
    // The resolver above is loaded with require(), so it is CommonJS.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', exports: 'writable' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // The SDK (clients/typescript/src) runs in browsers and in Node 20+: fetch and its types,
  // timers, no Node globals.
  {
    files: ['clients/typescript/src/**/*.ts'],
    languageOptions: {
      globals: {
        fetch: 'readonly', Request: 'readonly', Response: 'readonly', Headers: 'readonly', URL: 'readonly', AbortSignal: 'readonly',
        setTimeout: 'readonly', clearTimeout: 'readonly', globalThis: 'readonly',
        process: 'off', Buffer: 'off', NodeJS: 'off', console: 'off',
      },
    },
  },
  // The web console (web/src) runs in the browser: browser globals, no Node ones. Its build
  // files (web/vite.config.ts, web/build/) run in Node and keep the globals above.
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: {
      globals: {
        window: 'readonly', document: 'readonly', navigator: 'readonly', location: 'readonly', history: 'readonly', fetch: 'readonly',
        Request: 'readonly', Response: 'readonly', Headers: 'readonly', URL: 'readonly', URLSearchParams: 'readonly', AbortController: 'readonly',
        setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', console: 'readonly',
        HTMLElement: 'readonly', HTMLInputElement: 'readonly', File: 'readonly', FileReader: 'readonly', Blob: 'readonly', Intl: 'readonly',
        process: 'off', Buffer: 'off', NodeJS: 'off',
      },
    },
    rules: {
      'no-restricted-properties': ['error', { object: 'window', property: 'localStorage', message: 'The console keeps secrets in memory only.' }, { object: 'window', property: 'sessionStorage', message: 'The console keeps secrets in memory only.' }],
      'no-restricted-globals': ['error', { name: 'localStorage', message: 'The console keeps secrets in memory only.' }, { name: 'sessionStorage', message: 'The console keeps secrets in memory only.' }],
    },
  },
);
