/**
 * Adversarial inputs with a specific message each: zip and gzip bombs, archive entries with `..`
 * or absolute paths, Snappy blocks that expand past their declared size, hostile length prefixes
 * (2^31-1) and negative counts, and a descriptor set dropped as a savepoint (and the reverse).
 */
import { gzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { loadDescriptorSet } from '../../src/core/compat';
import { readCheckpointMetadata } from '../../src/core/flink';
import { ByteReader, ByteWriter, bytesSource, decodeSnappyFramed, isDecodeError, openSavepointInput } from '../../src/core/io';
import { openTarArchive } from '../../src/core/io/open-tar-archive';
import { openZipArchive } from '../../src/core/io/open-zip-archive';
import { writeSnappyFramed } from '../../src/core/io/write-snappy-framed';
import { DEFAULT_PROTOBUF_SETTINGS } from '../../src/core/protobuf';
import { readProtobufFrame } from '../../src/core/protobuf/read-protobuf-frame';
import { decodeErrorOfAsync } from '../helpers/decode-error-of';

const decodeErrorOf = decodeErrorOfAsync;

/** A ustar archive of regular files (test-side writer: 512-byte headers with checksums). */
function buildTar(entries: { name: string; data: Uint8Array }[]): Uint8Array {
  const blocks: Uint8Array[] = [];
  for (const e of entries) {
    const h = new Uint8Array(512);
    const put = (at: number, text: string) => h.set(new TextEncoder().encode(text), at);
    put(0, e.name);
    put(100, '0000644\0');
    put(108, '0000000\0');
    put(116, '0000000\0');
    put(124, `${e.data.length.toString(8).padStart(11, '0')}\0`);
    put(136, '00000000000\0');
    put(148, '        ');
    h[156] = 0x30;
    put(257, 'ustar\u000000');
    const sum = h.reduce((a, b) => a + b, 0);
    put(148, `${sum.toString(8).padStart(6, '0')}\0 `);
    blocks.push(h);
    const body = new Uint8Array(Math.ceil(e.data.length / 512) * 512);
    body.set(e.data);
    blocks.push(body);
  }
  blocks.push(new Uint8Array(1024));
  const out = new Uint8Array(blocks.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of blocks) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}

const METADATA_HEAD = [0x49, 0x60, 0x67, 0x2d, 0, 0, 0, 4];
const text = (s: string) => new TextEncoder().encode(s);

describe('archive bombs', () => {
  it('a zip entry expanding 1023:1 is refused before inflating', async () => {
    const zip = zipSync({ 'sp/_metadata': new Uint8Array(8 * 1024 * 1024) }, { level: 9 });
    const e = await decodeErrorOf(() => openSavepointInput({ kind: 'source', source: bytesSource('bomb.zip', zip) }));
    expect([e.code, e.file]).toEqual(['limit-exceeded', 'bomb.zip']);
    expect(e.message).toBe(
      "zip entry 'sp/_metadata' declares 8388608 bytes from 8193 compressed bytes (ratio 1023:1), above the limit of 200:1: refusing a possible zip bomb — at bomb.zip, offset 8235 (0x202b)",
    );
  });

  it('a gzip stream expanding past 200:1 is stopped while inflating', async () => {
    const e = await decodeErrorOf(() =>
      openSavepointInput({ kind: 'source', source: bytesSource('bomb.tar.gz', gzipSync(new Uint8Array(8 * 1024 * 1024), { level: 9 })) }),
    );
    expect(e.code).toBe('limit-exceeded');
    expect(e.message).toMatch(
      /^expected the gzip stream to expand at most 200:1, found \d+ bytes from \d+ compressed bytes: refusing a possible gzip bomb — at bomb\.tar\.gz, offset \d+ \(0x[0-9a-f]+\)$/,
    );
  });
});

describe('archive entries with .. or absolute paths are listed as warnings and never used', () => {
  const files = { 'sp/_metadata': new Uint8Array(METADATA_HEAD), '../evil': text('x'), '/etc/passwd': text('y') };

  it('zip', async () => {
    const listing = await openZipArchive(bytesSource('t.zip', zipSync(files)));
    expect(listing.files.map((f) => f.path)).toEqual(['sp/_metadata']);
    expect(listing.warnings).toEqual(["ignored zip entry '../evil': it contains a '..' segment", "ignored zip entry '/etc/passwd': it is an absolute path"]);
  });

  it('tar', async () => {
    const tar = buildTar(Object.entries(files).map(([name, data]) => ({ name, data })));
    const listing = await openTarArchive(bytesSource('t.tar', tar));
    expect(listing.files.map((f) => f.path)).toEqual(['sp/_metadata']);
    expect(listing.warnings).toEqual(["ignored tar member '../evil': it contains a '..' segment", "ignored tar member '/etc/passwd': it is an absolute path"]);
  });

  it('a savepoint whose only _metadata sits outside the archive root is not found, and the escape is not followed', async () => {
    const e = await decodeErrorOf(() =>
      openSavepointInput({ kind: 'source', source: bytesSource('escape.zip', zipSync({ '../sp/_metadata': new Uint8Array(METADATA_HEAD) })) }),
    );
    expect([e.code, e.message]).toEqual([
      'not-recognised',
      'expected a savepoint (a file named _metadata) in escape.zip, found no files — at escape.zip, offset 0 (0x0)',
    ]);
  });
});

describe('Snappy', () => {
  it('a block that expands past its declared size is refused at the offending tag', () => {
    const framed = writeSnappyFramed(new Uint8Array(100).fill(7));
    // stream identifier (10 bytes), chunk header (4), CRC (4), then the block: varint 100 → 80
    expect(framed[18]).toBe(100);
    framed[18] = 80;
    const e = (() => {
      try {
        decodeSnappyFramed(framed, { file: 'state', checksums: 'ignore' });
      } catch (x) {
        return x;
      }
      throw new Error('expected a DecodeError');
    })();
    expect(isDecodeError(e) && [e.code, e.message]).toEqual([
      'corrupt-compression',
      expect.stringMatching(/^expected the Snappy block to expand to its declared 80 bytes, found it expands past that — at state, offset \d+/),
    ]);
  });
});

describe('hostile length prefixes and counts', () => {
  it('a value frame of 2^31-1 bytes is refused from its length, before anything is allocated', () => {
    const r = new ByteReader(new ByteWriter().i32(0x7fffffff).u8(1).finish(), { file: 'state' });
    const e = (() => {
      try {
        readProtobufFrame(r, DEFAULT_PROTOBUF_SETTINGS.maxMessageSize);
      } catch (x) {
        return x;
      }
      throw new Error('expected a DecodeError');
    })();
    expect(isDecodeError(e) && e.message).toBe('Invalid Protobuf frame length 2147483647; maxMessageSize=67108864 — at state, offset 0 (0x0)');
  });

  it('ByteReader counts: negative and over-long counts are refused against the bytes left', () => {
    const neg = new ByteReader(new ByteWriter().i32(-5).finish(), { file: 'f' });
    expect(() => neg.readCount('operator count')).toThrow(/operator count/);
    const huge = new ByteReader(new ByteWriter().i32(0x7fffffff).bytes([1, 2, 3]).finish(), { file: 'f' });
    expect(() => huge.readCount('operator count', 8)).toThrow(/operator count/);
  });

  it('_metadata with a negative and a 2^31-1 master-state count', async () => {
    const cases: [number, string][] = [
      [-1, 'expected a non-negative number of master states, found -1 — at _metadata, offset 16 (0x10)'],
      [0x7fffffff, 'expected 2147483647 master states (at least 17179869176 bytes), found 0 bytes left — at _metadata, offset 16 (0x10)'],
    ];
    for (const [count, message] of cases) {
      const bytes = new ByteWriter().bytes(METADATA_HEAD).i64(1n).i32(count).finish();
      const e = await decodeErrorOf(() => readCheckpointMetadata(bytes, '_metadata'));
      expect([e.file, e.offset, e.message]).toEqual(['_metadata', 16, message]);
    }
  });
});

describe('wrong kind of file', () => {
  it('a descriptor set dropped as a savepoint, and a _metadata given as the schema', async () => {
    const set = new Uint8Array([0x0a, 0x09, 0x0a, 0x07, ...text('a.proto')]);
    const e = await decodeErrorOf(() => openSavepointInput({ kind: 'source', source: bytesSource('schema.binpb', set) }));
    expect([e.code, e.message]).toEqual([
      'wrong-file-kind',
      'This looks like a Protobuf descriptor set, not a savepoint: give it as the new schema, and as the savepoint a savepoint folder, its _metadata file, or a .zip/.tar/.tar.gz of the folder — at schema.binpb, offset 0 (0x0)',
    ]);
    const r = await decodeErrorOf(() => loadDescriptorSet(new Uint8Array([...METADATA_HEAD, 0, 0, 0, 0]), '_metadata'));
    expect([r.code, r.message]).toEqual([
      'not-recognised',
      'Expected a binary FileDescriptorSet (first byte 0x0a), found bytes 49 60 67 2d 00 00 00 04 — at _metadata, offset 0 (0x0) [descriptor set]',
    ]);
  });
});
