/**
 * A loopback static server for tests: serves a folder with Range support (206 + Content-Range),
 * and counts requests and body bytes sent, so tests can assert what a remote read downloaded.
 */
import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';

export interface ServedFolder {
  base: string;
  stats: { requests: number; bytes: number; paths: string[] };
  close(): Promise<void>;
}

export async function serveFolder(root: string): Promise<ServedFolder> {
  const stats = { requests: 0, bytes: 0, paths: [] as string[] };
  const server: Server = createServer((req, res) => {
    stats.requests++;
    const rel = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\/+/, '');
    stats.paths.push(rel);
    const file = path.join(root, rel);
    let size: number;
    try {
      const st = statSync(file);
      if (!st.isFile() || !file.startsWith(root)) throw new Error('not a file');
      size = st.size;
    } catch {
      res.writeHead(404).end();
      return;
    }
    const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    if (!m) {
      res.writeHead(200, { 'content-length': size });
      if (req.method === 'HEAD') return void res.end();
      stats.bytes += size;
      createReadStream(file).pipe(res);
      return;
    }
    const start = Number(m[1]);
    const end = Math.min(Number(m[2]), size - 1);
    if (start >= size) {
      res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
      return;
    }
    res.writeHead(206, { 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': end - start + 1 });
    stats.bytes += end - start + 1;
    createReadStream(file, { start, end }).pipe(res);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  return {
    base: `http://127.0.0.1:${port}`,
    stats,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
