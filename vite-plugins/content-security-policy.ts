import type { Plugin } from 'vite';

/**
 * The app may talk only to its own origin, plus the origin of a savepoint URL the user gave with
 * `?savepoint=<url>` (only http/https), plus, when `serve` sends the page, the companion's loopback
 * origin (`http://127.0.0.1:<port>`, its own: the API the app reads object stores through). No eval, no inline scripts, no plugins, no framing.
 * `'wasm-unsafe-eval'` lets the page and its workers compile WebAssembly (the Query view's DuckDB-WASM,
 * served from this origin); it allows no JavaScript eval.
 */
export function buildContentSecurityPolicy(savepointUrl: string | null, companionOrigin?: string): string {
  const connect = ["'self'"];
  if (companionOrigin !== undefined) connect.push(companionOrigin);
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

/**
 * The policy the static build carries as `<meta http-equiv="Content-Security-Policy">` in index.html,
 * for hosts where headers cannot be set: the header's policy for a page without `?savepoint=`, less
 * `frame-ancestors`, which browsers ignore in a meta (only a header can forbid framing).
 */
export function metaContentSecurityPolicy(): string {
  return buildContentSecurityPolicy(null)
    .split('; ')
    .filter((directive) => !directive.startsWith('frame-ancestors '))
    .join('; ');
}

export function contentSecurityPolicy(): Plugin {
  return {
    name: 'savepoint-inspector:csp',
    // the build's index.html carries the policy for static hosts, where no header can be set; the
    // dev server's page gets none (React Fast Refresh injects an inline script there)
    transformIndexHtml(html, ctx) {
      if (ctx.server) return html;
      // right after the charset, before any script or stylesheet: a meta policy governs only what follows it
      const charset = '<meta charset="UTF-8" />';
      if (!html.includes(charset)) throw new Error(`index.html has no ${charset} to put the Content-Security-Policy meta after`);
      return html.replace(charset, `${charset}\n    <meta http-equiv="Content-Security-Policy" content="${metaContentSecurityPolicy()}" />`);
    },
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
