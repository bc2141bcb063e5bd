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
  server: { port: 5173 },
  preview: { port: 4173 },
});
