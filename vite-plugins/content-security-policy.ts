import type { Plugin } from 'vite';

/**
 * The app may talk only to its own origin, plus the origin of a savepoint URL the user gave with
 * `?savepoint=<url>` (only http/https). No eval, no inline scripts, no plugins, no framing.
 * `'wasm-unsafe-eval'` lets the page and its workers compile WebAssembly (the Query view's DuckDB-WASM,
 * served from this origin); it allows no JavaScript eval.
 */
export function buildContentSecurityPolicy(savepointUrl: string | null): string {
  const connect = ["'self'"];
  if (savepointUrl) {
    try {
      const u = new URL(savepointUrl);
      if (u.protocol === 'http:' || u.protocol === 'https:') connect.push(u.origin);
    } catch {
      // not a URL: the app reports it; the policy stays self-only
    }
  }
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src ${connect.join(' ')}`,
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function contentSecurityPolicy(): Plugin {
  return {
    name: 'savepoint-inspector:csp',
    configurePreviewServer(server) {
      server.middlewares.use((req, res, next) => {
        const url = new URL(req.url ?? '/', 'http://localhost');
        res.setHeader('Content-Security-Policy', buildContentSecurityPolicy(url.searchParams.get('savepoint')));
        res.setHeader('X-Content-Type-Options', 'nosniff');
        res.setHeader('Referrer-Policy', 'no-referrer');
        next();
      });
    },
  };
}
