import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { contentSecurityPolicy } from './vite-plugins/content-security-policy.js';
import { demoAssets } from './vite-plugins/demo-assets.js';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

// The preview server (what the Playwright suite runs against) sends the Content-Security-Policy as a
// header, and the build carries it as a <meta> in index.html for static hosts; the dev server has
// neither, because React Fast Refresh injects an inline script there.
export default defineConfig({
  // relative asset URLs: the build runs from any folder of any static host (GitHub Pages' /<repo>/)
  base: './',
  define: { __APP_VERSION__: JSON.stringify(version) },
  plugins: [
    react(),
    demoAssets(),
    contentSecurityPolicy(),
    // the service worker (src/ui/offline/service-worker.ts): offline after the first visit. Only its
    // build: the app registers it itself (register-service-worker.ts, no inline script for the CSP),
    // and there is no web app manifest.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/ui/offline',
      filename: 'service-worker.ts',
      injectRegister: false,
      manifest: false,
      injectManifest: {
        rollupFormat: 'iife',
        // every file of the build but source maps: the app shell, the workers, DuckDB's WebAssembly, the demo
        globPatterns: ['**/*'],
        globIgnores: ['**/*.map', 'service-worker.js'],
        // DuckDB's WebAssembly is 34 MB
        maximumFileSizeToCacheInBytes: 64 * 1024 * 1024,
      },
      devOptions: { enabled: false },
    }),
  ],
  worker: { format: 'es' },
  // snappy-wasm finds its .wasm beside its module (new URL(…, import.meta.url)): the dev server's dependency
  // pre-bundling would move the module away from it; the build emits it as an asset either way
  optimizeDeps: { exclude: ['snappy-wasm'] },
  build: { target: 'es2022', sourcemap: true },
  // never open a browser: npm start runs on machines without one (xdg-open absent), and the README gives the URL
  server: { port: 5173, open: false },
  preview: { port: 4173 },
});
