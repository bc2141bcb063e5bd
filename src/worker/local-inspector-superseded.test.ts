/**
 * A page asked for before another savepoint is opened is read from the savepoint it was asked of:
 * the session is taken once per call, never looked up again after the scan.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { InputFile } from './inspector';
import { LocalInspector } from './local-inspector';
import { requireCommitted } from '../../tests/helpers/committed-data';

const A = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/native/savepoint');
const B = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/rocksdb/native/savepoint');
const OPERATOR = '6d821971c3bfd7ae2c972e89d7414f7c';
const STATE = 'events-by-name';

/** A's files; reads of its state files (not _metadata) wait until `release` is called. */
function gatedFiles(dir: string): { files: InputFile[]; release: () => void } {
  let release = () => undefined as void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const files = readdirSync(dir).map((n) => {
    const blob = new Blob([readFileSync(path.join(dir, n))]);
    if (n === '_metadata') return { path: `sp/${n}`, blob };
    const gated = {
      size: blob.size,
      slice: (start?: number, end?: number) => ({ arrayBuffer: async () => (await gate, blob.slice(start, end).arrayBuffer()) }),
    } as unknown as Blob;
    return { path: `sp/${n}`, blob: gated };
  });
  return { files, release };
}

const plainFiles = (dir: string): InputFile[] => readdirSync(dir).map((n) => ({ path: `sp/${n}`, blob: new Blob([readFileSync(path.join(dir, n))]) }));

/** B's files without its SST files (told by the block-based table magic at their end): its keyed state cannot be read. */
const withoutSstFiles = (dir: string): InputFile[] =>
  readdirSync(dir)
    .filter((n) => readFileSync(path.join(dir, n)).subarray(-8).toString('hex') !== 'f7cff485b741e288')
    .map((n) => ({ path: `sp/${n}`, blob: new Blob([readFileSync(path.join(dir, n))]) }));

requireCommitted(path.join(A, '_metadata'), path.join(B, '_metadata'));

describe('a page read while another savepoint is opened', () => {
  it("listEntries and getEntryDetail started on A give A's rows after B is opened", async () => {
    const alone = new LocalInspector();
    await alone.open({ kind: 'files', files: plainFiles(A) });
    const expected = await alone.listEntries({ operatorId: OPERATOR, state: STATE, offset: 3, limit: 4 });
    const expectedDetail = await alone.getEntryDetail({ operatorId: OPERATOR, state: STATE, index: 5 });
    expect(expected.rows).toHaveLength(4);

    const inspector = new LocalInspector();
    const a = gatedFiles(A);
    await inspector.open({ kind: 'files', files: a.files });
    const page = inspector.listEntries({ operatorId: OPERATOR, state: STATE, offset: 3, limit: 4 });
    const detail = inspector.getEntryDetail({ operatorId: OPERATOR, state: STATE, index: 5 });
    // B has the same operator and state names (RocksDB native without its SST files: its keyed state is not readable)
    const opened = await inspector.open({ kind: 'files', files: withoutSstFiles(B) });
    a.release();
    expect(await page).toEqual(expected);
    expect(await detail).toEqual(expectedDetail);
    // B's own scan is B's, not A's cached one
    expect(opened.savepointHash).not.toBeNull();
    await expect(inspector.getStateStats({ operatorId: OPERATOR, state: STATE })).rejects.toMatchObject({ code: 'missing-file' });
  });
});
