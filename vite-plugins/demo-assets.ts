import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * The "Open demo" input: one of the project's own small savepoint fixtures and a changed schema,
 * copied from fixtures/ at build time (served from memory by the dev server) under /demo/, with a
 * manifest. Nothing is copied into public/ by hand, so the demo always matches the fixtures.
 */
export const DEMO = {
  /** folder holding `_metadata`, relative to the repository root (a real Flink 1.20.5 savepoint) */
  savepoint: 'fixtures/savepoints/flink-1.20/hashmap/canonical/savepoint',
  /** the folder name the app shows for it */
  folderName: 'flink-1.20-hashmap-canonical-savepoint',
  /** the new schema: a descriptor set built from src/ui/demo-schema (see its README) */
  schema: 'src/ui/demo-schema/events-changed.binpb',
  description: 'Flink 1.20 savepoint with Protobuf state (fixtures.events.Event), and a changed events schema',
};

interface DemoFile {
  /** path inside the demo input (what the app sees as the dropped path) */
  path: string;
  source: string;
}

export function listDemoFiles(root: string): DemoFile[] | null {
  const spDir = path.resolve(root, DEMO.savepoint);
  if (!existsSync(path.join(spDir, '_metadata'))) return null;
  const folder = DEMO.folderName;
  const files: DemoFile[] = [];
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir).sort()) {
      const abs = path.join(dir, name);
      const r = rel ? `${rel}/${name}` : name;
      if (statSync(abs).isDirectory()) walk(abs, r);
      else files.push({ path: `${folder}/${r}`, source: abs });
    }
  };
  walk(spDir, '');
  const schema = path.resolve(root, DEMO.schema);
  if (existsSync(schema)) files.push({ path: path.basename(schema), source: schema });
  return files;
}

function manifestOf(files: DemoFile[]): string {
  const schema = files.find((f) => f.path === path.basename(DEMO.schema));
  return JSON.stringify(
    { savepoint: DEMO.folderName, schema: schema ? schema.path : null, description: DEMO.description, files: files.map((f) => f.path) },
    null,
    2,
  );
}

export function demoAssets(): Plugin {
  let root = process.cwd();
  return {
    name: 'savepoint-inspector:demo-assets',
    configResolved(config) {
      root = config.root;
    },
    configureServer(server) {
      server.middlewares.use('/demo/', (req, res, next) => {
        const files = listDemoFiles(root);
        if (!files) return next();
        const want = decodeURIComponent((req.url ?? '/').split('?')[0].replace(/^\//, ''));
        if (want === 'manifest.json') {
          res.setHeader('Content-Type', 'application/json');
          res.end(manifestOf(files));
          return;
        }
        const f = files.find((x) => x.path === want);
        if (!f) return next();
        res.setHeader('Content-Type', 'application/octet-stream');
        res.end(readFileSync(f.source));
      });
    },
    generateBundle() {
      const files = listDemoFiles(root);
      if (!files) {
        this.warn(`demo not bundled: ${DEMO.savepoint}/_metadata does not exist yet`);
        return;
      }
      this.emitFile({ type: 'asset', fileName: 'demo/manifest.json', source: manifestOf(files) });
      // GitHub Pages deployed from a branch runs Jekyll, which leaves out files named `_…` (`_metadata`)
      // unless the site's root has a `.nojekyll`; other hosts ignore it
      this.emitFile({ type: 'asset', fileName: '.nojekyll', source: '' });
      for (const f of files) this.emitFile({ type: 'asset', fileName: `demo/${f.path}`, source: readFileSync(f.source) });
    },
  };
}
