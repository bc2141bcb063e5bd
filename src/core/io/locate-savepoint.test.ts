import { strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { bytesSource, detectInputKind, isDecodeError, isUsageError, openSavepointInput, type InputFile, type UsageError } from './index';
import { locateSavepoint } from './locate-savepoint';

const file = (path: string, content = path): InputFile => ({ path, source: bytesSource(`drop/${path}`, strToU8(content)) });
const METADATA_MAGIC = [0x49, 0x60, 0x67, 0x2d, 0, 0, 0, 4];

describe('locateSavepoint', () => {
  it('roots the savepoint at the _metadata folder; relative names resolve next to it and never outside', () => {
    const sp = locateSavepoint('drop', [file('sp/_metadata'), file('sp/uuid-1'), file('sp/sub/x'), file('other/y')]);
    expect(sp.metadata.name).toBe('drop/sp/_metadata');
    expect(sp.files.map((f) => f.name)).toEqual(['drop/sp/_metadata', 'drop/sp/uuid-1', 'drop/sp/sub/x']);
    expect(sp.resolveRelative('uuid-1')?.name).toBe('drop/sp/uuid-1');
    expect(sp.resolveRelative('./sub/x')?.name).toBe('drop/sp/sub/x');
    expect(sp.resolveRelative('../other/y')).toBeUndefined();
    expect(sp.resolveRelative('/sp/uuid-1')).toBeUndefined();
    expect(sp.resolveRelative('absent')).toBeUndefined();
    expect(sp.warnings).toEqual(["1 file of drop outside the _metadata folder 'sp' is ignored"]);
  });

  it('several _metadata: refused as ambiguous (never a silent pick), the candidates as data', () => {
    let thrown: unknown;
    try {
      locateSavepoint('drop', [file('a/b/_metadata'), file('z/_metadata'), file('c/_metadata'), file('c/s')]);
    } catch (e) {
      thrown = e;
    }
    expect(isUsageError(thrown) && thrown.code).toBe('several-savepoints');
    expect((thrown as Error).message).toBe(
      "expected one savepoint in drop, found 3 _metadata files: 'c/_metadata', 'z/_metadata', 'a/b/_metadata'; name the one to read",
    );
    expect((thrown as UsageError).toJSON().candidates).toEqual(['c/_metadata', 'z/_metadata', 'a/b/_metadata']);
  });

  it('several _metadata: the one named (its path or its folder) is read, without a warning', () => {
    const files = [file('a/b/_metadata'), file('a/b/s'), file('z/_metadata'), file('c/_metadata'), file('c/s')];
    const byFolder = locateSavepoint('drop', files, [], [], 'a/b');
    expect(byFolder.metadata.name).toBe('drop/a/b/_metadata');
    expect(byFolder.resolveRelative('s')?.name).toBe('drop/a/b/s');
    expect(byFolder.warnings).toEqual(["3 files of drop outside the _metadata folder 'a/b' are ignored"]);
    expect(locateSavepoint('drop', files, [], [], 'z/_metadata').metadata.name).toBe('drop/z/_metadata');
    expect(locateSavepoint('drop', files, [], [], 'c/').metadata.name).toBe('drop/c/_metadata');
    expect(() => locateSavepoint('drop', files, [], [], 'a')).toThrow(
      "expected a savepoint at 'a' in drop, found _metadata only at 'c/_metadata', 'z/_metadata', 'a/b/_metadata'",
    );
  });

  it("a job folder's retained checkpoints (chk-N side by side) are Flink's layout: the latest is read, with a warning", () => {
    const sp = locateSavepoint('job', [file('chk-9/_metadata'), file('chk-10/_metadata'), file('shared/x')]);
    expect(sp.metadata.name).toBe('drop/chk-10/_metadata');
    expect(sp.warnings[0]).toBe("found 2 _metadata files in job; using 'chk-10/_metadata' (the latest checkpoint) and ignoring 'chk-9/_metadata'");
  });

  it('no _metadata: not-recognised, listing what was found', () => {
    try {
      locateSavepoint('drop', [file('x/a'), file('b')]);
      expect.unreachable();
    } catch (e) {
      expect(isDecodeError(e) && e.code).toBe('not-recognised');
      expect((e as Error).message).toBe("expected a savepoint (a file named _metadata) in drop, found 2 files: 'b', 'x/a' — at drop, offset 0 (0x0)");
    }
    expect(() => locateSavepoint('empty', [])).toThrow('expected a savepoint (a file named _metadata) in empty, found no files');
  });

  it('ignores entries with .. or absolute paths (and never picks their _metadata)', () => {
    const sp = locateSavepoint('drop', [file('../_metadata'), file('/_metadata'), file('sp\\_metadata')]);
    expect(sp.metadata.name).toBe('drop/sp\\_metadata');
    expect(sp.warnings.slice(0, 2)).toEqual(["ignored '../_metadata': it contains a '..' segment", "ignored '/_metadata': it is an absolute path"]);
  });
});

describe('detectInputKind and openSavepointInput on wrong inputs', () => {
  const descriptorSet = (): Uint8Array => {
    // FileDescriptorSet { file { name: "orders.proto" package: "shop" } }
    const name = strToU8('orders.proto');
    const pkg = strToU8('shop');
    const fileProto = [0x0a, name.length, ...name, 0x12, pkg.length, ...pkg];
    return Uint8Array.from([0x0a, fileProto.length, ...fileProto]);
  };

  it.each([
    ['zip', [0x50, 0x4b, 0x03, 0x04, 0, 0]],
    ['gzip', [0x1f, 0x8b, 8, 0]],
    ['flink-metadata', METADATA_MAGIC],
    ['snappy-framed', [0xff, 0x06, 0x00, 0x00, 0x73, 0x4e, 0x61, 0x50, 0x70, 0x59]],
    ['bzip2', [0x42, 0x5a, 0x68, 0x39]],
    ['java-serialized', [0xac, 0xed, 0x00, 0x05, 0x73]],
    ['json', [...strToU8('  {"a": 1}')]],
    ['protobuf-source', [...strToU8('syntax = "proto3";\nmessage A {}\n')]],
    ['unknown', [1, 2, 3, 4, 5]],
  ])('detects %s', async (kind, bytes) => {
    expect((await detectInputKind(bytesSource('f', Uint8Array.from(bytes)))).kind).toBe(kind);
  });

  it('detects tar by ustar at 257 and RocksDB SST by its footer magic', async () => {
    const tar = new Uint8Array(1024);
    tar.set(strToU8('ustar\u000000'), 257);
    expect((await detectInputKind(bytesSource('t', tar))).kind).toBe('tar');
    const sst = new Uint8Array(100);
    sst.set([0xf7, 0xcf, 0xf4, 0x85, 0xb7, 0x41, 0xe2, 0x88], 92);
    expect((await detectInputKind(bytesSource('s', sst))).kind).toBe('rocksdb-sst');
  });

  it('a descriptor set dropped as a savepoint gets its own message', async () => {
    const src = bytesSource('schema.binpb', descriptorSet());
    expect(await detectInputKind(src)).toEqual({ kind: 'protobuf-descriptor-set', label: 'a Protobuf descriptor set' });
    const e = await openSavepointInput({ kind: 'source', source: src }).catch((x: unknown) => x as Error);
    expect(isDecodeError(e) && e.code).toBe('wrong-file-kind');
    expect((e as Error).message).toBe(
      'This looks like a Protobuf descriptor set, not a savepoint: give it as the new schema, and as the savepoint a savepoint folder, its _metadata file, or a .zip/.tar/.tar.gz of the folder — at schema.binpb, offset 0 (0x0)',
    );
    const dropped = await openSavepointInput({ kind: 'files', name: 'drop', files: [{ path: 'schema.binpb', source: src }] }).catch((x: unknown) => x as Error);
    expect((dropped as Error).message).toMatch(/^This looks like a Protobuf descriptor set, not a savepoint/);
  });

  it('an unrecognised file names its first bytes; a lone _metadata opens as a self-contained savepoint', async () => {
    await expect(openSavepointInput({ kind: 'source', source: bytesSource('x.bin', Uint8Array.from([0xde, 0xad, 0xbe, 0xef, 1])) })).rejects.toThrow(
      'expected a savepoint folder, its _metadata file, or a .zip/.tar/.tar.gz of the folder, found an unrecognised file starting with de ad be ef 01 — at x.bin, offset 0 (0x0)',
    );
    const meta = bytesSource('chk-1/_metadata', Uint8Array.from(METADATA_MAGIC));
    const sp = await openSavepointInput({ kind: 'source', source: meta });
    expect(sp.metadata).toBe(meta);
    expect(sp.resolveRelative('anything')).toBeUndefined();
  });
});
