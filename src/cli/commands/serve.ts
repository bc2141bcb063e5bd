/**
 * `serve [--port N] [--open]`: serves the built app (the `dist/` folder `vite build` writes, shipped in
 * the npm package) on 127.0.0.1 only, behind a random token (./app-server.ts), until interrupted.
 * The app decodes savepoints in the browser tab; the server hands it its own files and, as the app's
 * companion, the byte ranges of object-store savepoints the user opens (./companion-api.ts), read with
 * this machine's credentials.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliUsageError, EXIT_BAD_INPUT, EXIT_OK, type CliCommand, type CliIo } from '../cli-types';
import { startAppServer, SERVE_HOST, type AppServer } from './app-server';

export const serveCommand: CliCommand = {
  name: 'serve',
  summary: 'serve the browser app on 127.0.0.1, behind a token, for this machine',
  usage: [
    'Usage: savepoint-inspector serve [--port N] [--open]',
    '',
    'Serves the built app on 127.0.0.1 only (never another interface) and prints its URL, which carries',
    'a random token: requests without it are refused (403). Savepoints are read in the browser tab;',
    "nothing leaves the machine. As the app's companion it also reads object-store URLs typed in the",
    "app (s3://, abfss://, wasbs://, as the CLI reads them, with this machine's credentials): only byte",
    'ranges of the objects under the URLs opened, only for that page. Runs until interrupted (Ctrl-C).',
    '',
    'Options:',
    '  --port N    the port (default 0: a free port the system picks)',
    '  --open      open the URL in the default browser',
    '  -h, --help  show this help',
  ].join('\n'),
  quiet: 'the URL alone',
  options: {
    port: { type: 'string' },
    open: { type: 'boolean' },
  },
  async run({ values, positionals }, io) {
    if (positionals.length > 0) throw new CliUsageError(`serve takes no arguments (got ${positionals.join(' ')})`);
    const port = parsePort(values['port']);
    const appDir = findAppDir();
    if (appDir === undefined) {
      io.stderr(
        'savepoint-inspector serve: the built app (dist/index.html) is missing next to the CLI: run `npm run build` in the repository, or install the package\n',
      );
      return EXIT_BAD_INPUT;
    }
    let server: AppServer;
    try {
      server = await startAppServer({ appDir, port });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') {
        io.stderr(`savepoint-inspector serve: port ${port} on ${SERVE_HOST} is in use: choose another with --port N, or --port 0 for a free one\n`);
        return EXIT_BAD_INPUT;
      }
      if (code === 'EACCES') {
        io.stderr(`savepoint-inspector serve: not allowed to listen on port ${port} on ${SERVE_HOST}: choose a port above 1023\n`);
        return EXIT_BAD_INPUT;
      }
      throw e;
    }
    io.stdout(
      values['quiet'] === true ? `${server.url}\n` : `Savepoint Inspector: ${server.url}\n(127.0.0.1 only; the URL's token is required. Ctrl-C stops it.)\n`,
    );
    if (values['open'] === true) openInBrowser(server.url, io);
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        resolve();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    await server.close();
    return EXIT_OK;
  },
};

function parsePort(raw: unknown): number {
  if (raw === undefined) return 0;
  const text = String(raw);
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new CliUsageError(`--port expects a port number from 0 to 65535, found '${text}'`);
  return port;
}

/**
 * The built app: `dist/` beside the nearest package.json above this module (the package's root, from
 * its CLI bundle in dist-cli/ as from the sources in src/cli/commands/).
 */
function findAppDir(): string | undefined {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json'))) {
      const app = path.join(dir, 'dist');
      return existsSync(path.join(app, 'index.html')) ? app : undefined;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function openInBrowser(url: string, io: CliIo): void {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  const child = spawn(command, args, { stdio: 'ignore', detached: true });
  child.on('error', (e) => io.stderr(`savepoint-inspector serve: could not open a browser (${command}: ${e.message}); open the URL above yourself\n`));
  child.unref();
}
