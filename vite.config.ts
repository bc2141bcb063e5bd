import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { contentSecurityPolicy } from './vite-plugins/content-security-policy.js';
import { demoAssets } from './vite-plugins/demo-assets.js';

// The preview server (what the Playwright suite runs against) sends the Content-Security-Policy;
// the dev server does not, because React Fast Refresh injects an inline script there.
export default defineConfig({
  plugins: [react(), demoAssets(), contentSecurityPolicy()],
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: true },
  // never open a browser: npm start runs on machines without one (xdg-open absent), and the README gives the URL
  server: { port: 5173, open: false },
  preview: { port: 4173 },
});
