/**
 * Memory: a `_metadata` above its stated limit (128 MiB) in a folder, a zip, a tar and over
 * HTTP is refused before it is read (exit 2 with the size and the limit), and a large member of a
 * .tar.gz that is not `_metadata` is streamed past, not kept. The large files are sparse (holes
 * cost no disk) or generated; each case's growth of resident memory is bounded.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, cpSync, openSync, readdirSync, readFileSync, rmSync, writeSync, ftruncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { describeSummary, FIXTURE_SAVEPOINT, FULL, makeScratchDir, runFuzzCases, savepointCommand, type FuzzCase } from './fuzz-workspace';
import { startLoopbackServer, type LoopbackServer } from './loopback-http-server';
import { judgeBadInputRun, judgeNoInternalError } from './run-cli-cases';

const LIMIT = 134_217_728;
const OVER = LIMIT + 1 + 4096;
const enc = new TextEncoder();

/** A file of `size` bytes: `head` at 0, `tail` at its end, a hole between. */
function writeSparse(file: string, size: number, head: Uint8Array, tail: Uint8Array = new Uint8Array(0)): void {
  const fd = openSync(file, 'w');
  try {
    writeSync(fd, head, 0, head.length, 0);
    ftruncateSync(fd, size);
    if (tail.length > 0) writeSync(fd, tail, 0, tail.length, size - tail.length);
  } finally {
    closeSync(fd);
  }
}

/** A STORED zip of one entry `name` of `size` zero bytes (declared CRC 0), as a sparse file. */
function writeSparseZip(file: string, name: string, size: number): void {
  const n = enc.encode(name);
  const local = new DataView(new ArrayBuffer(30));
  local.setUint32(0, 0x04034b50, true);
  local.setUint16(4, 20, true);
  local.setUint32(18, size, true);
  local.setUint32(22, size, true);
  local.setUint16(26, n.length, true);
  const head = new Uint8Array([...new Uint8Array(local.buffer), ...n]);
  const central = new DataView(new ArrayBuffer(46));
  central.setUint32(0, 0x02014b50, true);
  central.setUint16(4, 20, true);
  central.setUint16(6, 20, true);
  central.setUint32(20, size, true);
  central.setUint32(24, size, true);
  central.setUint16(28, n.length, true);
  const cd = new Uint8Array([...new Uint8Array(central.buffer), ...n]);
  const cdOffset = head.length + size;
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, 1, true);
  end.setUint16(10, 1, true);
  end.setUint32(12, cd.length, true);
  end.setUint32(16, cdOffset, true);
  writeSparse(file, cdOffset + cd.length + 22, head, new Uint8Array([...cd, ...new Uint8Array(end.buffer)]));
}

/** A tar holding `sp/_metadata` of `size` zero bytes, as a sparse file. */
function writeSparseTar(file: string, size: number): void {
  const h = new Uint8Array(512);
  const put = (at: number, t: string) => h.set(enc.encode(t), at);
  put(0, 'sp/_metadata');
  put(100, '0000644\0');
  put(124, `${size.toString(8).padStart(11, '0')}\0`);
  put(148, '        ');
  h[156] = 0x30;
  put(257, 'ustar\u000000');
  put(
    148,
    `${h
      .reduce((a, b) => a + b, 0)
      .toString(8)
      .padStart(6, '0')}\0 `,
  );
  writeSparse(file, 512 + Math.ceil(size / 512) * 512 + 1024, h);
}

/** A .tar.gz of the fixture savepoint plus one incompressible member of `size` bytes before it. */
function tarGzWithLargeMember(size: number): Uint8Array {
  const parts: Uint8Array[] = [];
  const member = (name: string, data: Uint8Array) => {
    const h = new Uint8Array(512);
    const put = (at: number, t: string) => h.set(enc.encode(t), at);
    put(0, name);
    put(100, '0000644\0');
    put(124, `${data.length.toString(8).padStart(11, '0')}\0`);
    put(148, '        ');
    h[156] = 0x30;
    put(257, 'ustar\u000000');
    put(
      148,
      `${h
        .reduce((a, b) => a + b, 0)
        .toString(8)
        .padStart(6, '0')}\0 `,
    );
    parts.push(h, data, new Uint8Array((512 - (data.length % 512)) % 512));
  };
  member('sp/large-attachment', new Uint8Array(randomBytes(size)));
  for (const name of readdirSync(FIXTURE_SAVEPOINT).sort()) member(`sp/${name}`, new Uint8Array(readFileSync(path.join(FIXTURE_SAVEPOINT, name))));
  parts.push(new Uint8Array(1024));
  const tar = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    tar.set(p, at);
    at += p.length;
  }
  return gzipSync(tar, { level: 1 });
}

const limitMessage = /expected a _metadata file of at most 134217728 bytes \(128 MiB[^\n]*found \d+ bytes — at [^\n]*offset 0/;
/** refused before reading: the process may not grow by a fraction of the file */
const REFUSED_RSS = 64 * 1024 * 1024;

describe('fuzz: memory bounds', () => {
  it('a _metadata over 128 MiB is refused before it is read, in every container; a large .tar.gz member is streamed past', async () => {
    const scratch = makeScratchDir('memory');
    let server: LoopbackServer | undefined;
    try {
      const folder = path.join(scratch.dir, 'folder');
      cpSync(FIXTURE_SAVEPOINT, folder, { recursive: true });
      const metadata = new Uint8Array(readFileSync(path.join(folder, '_metadata')));
      writeSparse(path.join(folder, '_metadata'), OVER, metadata);
      const zip = path.join(scratch.dir, 'sp.zip');
      writeSparseZip(zip, 'sp/_metadata', OVER);
      const tar = path.join(scratch.dir, 'sp.tar');
      writeSparseTar(tar, OVER);
      const cases: FuzzCase[] = [];
      let i = 0;
      for (const [label, input] of [
        ['folder', folder],
        ['lone _metadata', path.join(folder, '_metadata')],
        ['stored zip', zip],
        ['tar', tar],
      ] as const) {
        for (let k = 0; k < 5; k++, i++) {
          const index = i;
          cases.push({
            name: `memory #${index}: ${label} with a _metadata of ${OVER} bytes`,
            prepare: () => savepointCommand(index, input),
            judge: (run) => judgeBadInputRun(run, limitMessage, REFUSED_RSS),
          });
        }
      }
      const overHttp = new Uint8Array(OVER);
      overHttp.set(metadata);
      cases.push({
        name: `memory #${i++}: a _metadata of ${OVER} bytes over HTTP`,
        prepare: async () => {
          server = await startLoopbackServer(new Map([['/sp/_metadata', overHttp]]), undefined);
          return ['inspect', `${server.base}/sp/`];
        },
        judge: (run) => judgeBadInputRun(run, limitMessage, REFUSED_RSS),
      });
      const member = (FULL ? 250 : 96) * 1024 * 1024;
      const tgz = path.join(scratch.dir, 'large-member.tgz');
      for (const command of ['inspect', 'stats'] as const) {
        cases.push({
          name: `memory #${i++}: a .tar.gz with an incompressible member of ${member} bytes besides the savepoint (${command})`,
          prepare: () => {
            writeFileSync(tgz, tarGzWithLargeMember(member));
            return command === 'inspect' ? ['inspect', tgz, '--format', 'json'] : ['stats', tgz, '--workers', '1'];
          },
          // the member is inflated as the stream goes by, never kept: far less than its size
          judge: (run) => judgeNoInternalError(run, member / 2) ?? (run.code === 0 ? undefined : `exit ${run.code}: ${run.stderr.slice(0, 300)}`),
        });
      }
      const summary = await runFuzzCases(cases);
      console.log(describeSummary('memory fuzz', summary));
      expect(summary.failures).toEqual([]);
    } finally {
      await server?.close();
      rmSync(scratch.dir, { recursive: true, force: true });
    }
  });
});
