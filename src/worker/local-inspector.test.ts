import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { InputFile } from './inspector';
import { LocalInspector } from './local-inspector';
import { toInspectorFailure } from './to-inspector-failure';

const file = (path: string, bytes: number[] | Uint8Array): InputFile => ({ path, blob: new Blob([new Uint8Array(bytes)]) });

describe('LocalInspector.open', () => {
  it("classifies a folder drop and identifies it by _metadata's SHA-256 and the (path, size) listing, reading no state file", async () => {
    const meta = new Uint8Array([0x49, 0x60, 0x67, 0x2d, 0, 0, 0, 4]);
    const state = new Uint8Array([1, 2, 3]);
    const schema = new Uint8Array([0x0a, 0x00]);
    const progress: string[] = [];
    const session = await new LocalInspector().open(
      {
        kind: 'files',
        files: [file('sp/_metadata', meta), file('sp/abc-uuid', state), file('new.binpb', schema), file('notes.txt', [0x41])],
      },
      (p) => progress.push(`${p.phase} ${p.bytesRead}/${p.bytesTotal}`),
    );
    expect(session.savepointName).toBe('dropped files');
    expect(session.warnings).toEqual(["1 file of dropped files outside the _metadata folder 'sp' is ignored"]);
    expect(session.descriptorSetName).toBe('new.binpb');
    expect(session.files).toEqual([
      { path: 'sp/_metadata', size: 8, role: 'savepoint-metadata' },
      { path: 'sp/abc-uuid', size: 3, role: 'savepoint-file' },
      { path: 'new.binpb', size: 2, role: 'descriptor-set' },
      { path: 'notes.txt', size: 1, role: 'ignored' },
    ]);
    const sha = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');
    expect(session.digests).toEqual([
      { path: 'sp/_metadata', size: 8, sha256: sha(meta) },
      { path: 'sp/abc-uuid', size: 3 },
      { path: 'new.binpb', size: 2, sha256: sha(schema) },
    ]);
    expect(session.savepointHash).toBe(sha(`metadata\t8\t${sha(meta)}\nsp/abc-uuid\t3`));
    expect(session.inputHash).toBe(sha(`savepoint\t${session.savepointHash}\nnew.binpb\t2\t${sha(schema)}`));
    // only the descriptor set is hashed (2 bytes), the state file is not read
    expect(progress.filter((p) => p.startsWith('hashing')).at(-1)).toBe('hashing 2/2');
    expect(progress).toContain('opening 0/0');
  });

  it('gives the same hash for the same files in another order; another hash when _metadata, a size, a path or the schema changes', async () => {
    const open = async (...files: InputFile[]) => new LocalInspector().open({ kind: 'files', files });
    const a = await open(file('sp/_metadata', [1]), file('sp/x', [2]));
    expect((await open(file('sp/x', [2]), file('sp/_metadata', [1]))).inputHash).toBe(a.inputHash);
    // a state file's content is not part of the identity (Flink writes a new _metadata for every savepoint)
    expect((await open(file('sp/x', [3]), file('sp/_metadata', [1]))).savepointHash).toBe(a.savepointHash);
    expect((await open(file('sp/x', [2]), file('sp/_metadata', [9]))).savepointHash).not.toBe(a.savepointHash);
    expect((await open(file('sp/x', [2, 2]), file('sp/_metadata', [1]))).savepointHash).not.toBe(a.savepointHash);
    expect((await open(file('sp/y', [2]), file('sp/_metadata', [1]))).savepointHash).not.toBe(a.savepointHash);
    const withSchema = await open(file('sp/x', [2]), file('sp/_metadata', [1]), file('s.binpb', [0x0a, 0x00]));
    expect(withSchema.savepointHash).toBe(a.savepointHash);
    expect(withSchema.inputHash).not.toBe(a.inputHash);
  });

  it("rejects a file that is not a savepoint, with the core's content-based message", async () => {
    await expect(new LocalInspector().open({ kind: 'files', files: [file('photo.jpg', [0xff, 0xd8, 0xff, 0xe0])] })).rejects.toMatchObject({
      name: 'DecodeError',
      code: 'not-recognised',
      file: 'photo.jpg',
      offset: 0,
      detail: 'expected a savepoint folder, its _metadata file, or a .zip/.tar/.tar.gz of the folder, found an unrecognised file starting with ff d8 ff e0',
    });
  });

  it('says a lone descriptor set is the schema, not a savepoint, when the savepoint is asked for', async () => {
    const inspector = new LocalInspector();
    const session = await inspector.open({ kind: 'files', files: [file('schemas/new.protoset', [0x0a, 0x00])] });
    expect(session.savepointName).toBeNull();
    await expect(inspector.getInspection()).rejects.toMatchObject({
      name: 'UsageError',
      code: 'no-savepoint',
      detail:
        'schemas/new.protoset is a Protobuf descriptor set (the new schema), not a savepoint: add the savepoint too — its folder, a .zip/.tar/.tar.gz of it, or its _metadata file',
    });
  });

  it('cancels a running open: it rejects as cancelled and keeps no session', async () => {
    const inspector = new LocalInspector();
    const big = new Uint8Array(20 * 1024 * 1024);
    let cancelled = false;
    const pending = inspector.open({ kind: 'files', files: [file('sp/_metadata', [1]), file('sp/big', big)] }, () => {
      if (!cancelled) {
        cancelled = true;
        void inspector.cancel();
      }
    });
    await expect(pending).rejects.toMatchObject({ name: 'DecodeError', code: 'cancelled' });
    await expect(inspector.getInspection()).rejects.toMatchObject({ code: 'nothing-open', detail: 'nothing is open: open a savepoint first' });
  });
});

describe('LocalInspector.open: a drop holding several savepoints', () => {
  const meta = [0x49, 0x60, 0x67, 0x2d, 0, 0, 0, 4];
  const drop = (): InputFile[] => [file('job/a/_metadata', meta), file('job/a/x', [1]), file('job/b/_metadata', meta), file('job/b/y', [2, 3])];

  it('fails with the candidates as data (the app lets the user pick), never opening one silently', async () => {
    const failure = await new LocalInspector().open({ kind: 'files', files: drop() }).then(
      () => undefined,
      (e: unknown) => toInspectorFailure(e),
    );
    expect(failure).toEqual({
      kind: 'input',
      name: 'UsageError',
      code: 'several-savepoints',
      candidates: ['job/a/_metadata', 'job/b/_metadata'],
      message: "expected one savepoint in job, found 2 _metadata files: 'job/a/_metadata', 'job/b/_metadata'; name the one to read",
      detail: "expected one savepoint in job, found 2 _metadata files: 'job/a/_metadata', 'job/b/_metadata'; name the one to read",
      path: [],
    });
  });

  it('opens the candidate named by metadataPath', async () => {
    const session = await new LocalInspector().open({ kind: 'files', files: drop(), metadataPath: 'job/b/_metadata' });
    expect(session.digests.map((d) => d.path)).toEqual(['job/b/_metadata', 'job/b/y']);
    expect(session.warnings).toEqual(["2 files of job outside the _metadata folder 'job/b' are ignored"]);
  });
});
