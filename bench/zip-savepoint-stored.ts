/**
 * Zips a savepoint folder for figure 5 with STORED entries (no compression: state files of binary
 * Protobuf values barely compress, and a stored zip is what `zip -0` or a backup tool's "store"
 * mode writes), streamed through fflate's ZipPassThrough in 8 MiB chunks so no file is held whole.
 * Entries are `<folder name>/<file>`, like a zipped savepoint folder; the generator's manifest is left out.
 */
import { closeSync, openSync, readdirSync, readSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { Zip, ZipPassThrough } from 'fflate';

const CHUNK = 8 * 1024 * 1024;

export function zipSavepointStored(dir: string, zipPath: string): number {
  const out = openSync(zipPath, 'w');
  let written = 0;
  let failure: unknown = null;
  const zip = new Zip((err, data) => {
    if (err) failure = err;
    else for (let done = 0; done < data.length;) done += writeSync(out, data, done, data.length - done);
    written += data?.length ?? 0;
  });
  try {
    const base = path.basename(dir);
    const buf = new Uint8Array(CHUNK);
    for (const name of readdirSync(dir).sort()) {
      if (name === 'bench-manifest.json' || !statSync(path.join(dir, name)).isFile()) continue;
      const entry = new ZipPassThrough(`${base}/${name}`);
      zip.add(entry);
      const fd = openSync(path.join(dir, name), 'r');
      try {
        const size = statSync(path.join(dir, name)).size;
        let pos = 0;
        if (size === 0) entry.push(new Uint8Array(0), true);
        while (pos < size) {
          const n = readSync(fd, buf, 0, Math.min(CHUNK, size - pos), pos);
          pos += n;
          entry.push(buf.slice(0, n), pos >= size);
        }
      } finally {
        closeSync(fd);
      }
    }
    zip.end();
  } finally {
    closeSync(out);
  }
  if (failure) throw failure;
  return written;
}
