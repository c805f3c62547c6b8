// Builds the console into dist/console, which the `console` module serves at `/`.
// Everything is bundled (no CDN); text files get .br/.gz copies; the first-load JavaScript
// budget is enforced here so a heavy import fails the build, not a user's first visit.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { FIRST_LOAD_JS_BUDGET_BYTES, kb, measureFirstLoadJs } from './build/js-budget.js';
import { precompress } from './build/precompress.js';

const outDir = fileURLToPath(new URL('../dist/console', import.meta.url));

function compressAndCheckBudget(): Plugin {
  return {
    name: 'console-compress-and-budget',
    apply: 'build',
    closeBundle() {
      const js = measureFirstLoadJs(outDir);
      const line = `first load of /: ${js.files.length} JS files, ${kb(js.rawBytes)} raw, ${kb(js.gzipBytes)} gzip, ${kb(js.brotliBytes)} brotli (budget ${kb(FIRST_LOAD_JS_BUDGET_BYTES)})`;
      if (js.gzipBytes > FIRST_LOAD_JS_BUDGET_BYTES) throw new Error(`Console bundle over budget: ${line}`);
      precompress(outDir);
      // One summary line even with --logLevel warn (npm start stays quiet otherwise).
      process.stderr.write(`console built: ${line}\n`);
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [react(), compressAndCheckBudget()],
  // `npm run dev:web` serves the sources with hot reload and passes the API through to a
  // service started with `npm start` on port 8080.
  server: {
    proxy: Object.fromEntries(['/api', '/docs', '/openapi.json', '/healthz'].map((path) => [path, 'http://localhost:8080'])),
  },
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 600,
  },
});
