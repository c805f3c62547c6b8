// Lint: typescript-eslint's recommended rules, plus the project's habits (no `any`,
// `import type` for types, no process.env outside src/config.ts).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'web/src/api/schema.d.ts'] },
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
