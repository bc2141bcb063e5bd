/**
 * Keyed handles with code 3 (KEY_GROUPS_HANDLE) and 12 (KEY_GROUPS_HANDLE_V2) carry one of two
 * layouts behind the same KeyedBackendSerializationProxy header:
 * - the heap snapshot layout (HeapSnapshotStrategy; HashMap/FsStateBackend checkpoints and native
 *   savepoints): per key group of the range a block `i32 key group, (i16 state id, body) × states`,
 *   always written, so no offset is 0;
 * - the RocksDB full-snapshot layout (RocksFullSnapshotStrategy, Flink 1.11–1.15 RocksDB savepoints and
 *   non-incremental checkpoints): the layout canonical savepoints later kept, per key group with data a
 *   block `u16 state id, entries (i32 length + key with the key-group prefix, i32 length + value), …,
 *   FF FF`; key groups without data have offset 0.
 * The handle does not say which (a 1.12 RocksDB savepoint and a 1.12 heap checkpoint both write code
 * 3), so the layout is decided from the bytes of the first block, each layout's expectations tested,
 * and refused, never guessed, when the bytes fit neither.
 */
import { ByteReader, DecodeError, SNAPPY_STREAM_IDENTIFIER, isDecodeError, formatHex } from '../../io';
import type { KeyedStateHeader } from '../savepoint/inspection-types';
import type { KeyedStreamInput } from './keyed-stream-types';
import { listKeyGroupBlocks } from './read-canonical-keyed-entries';
import { KeyedEntryRows, ROW_FIELDS, createKeyGroupBlockCursor, readKeyGroupBlockPart } from './read-key-group-block';

export type KeyGroupsLayout = 'heap' | 'rocksdb-full';

/** Bytes of the first block read with the header to test the two layouts (a larger block is tested on its first part). */
export const LAYOUT_PROBE_BYTES = 16 * 1024;

export interface KeyGroupsLayoutDecision {
  layout: KeyGroupsLayout;
  /** what in the bytes decided it, in words */
  evidence: string;
}

/** How many bytes of the first block (at the header fence) detectKeyGroupsLayout wants to see. */
export function measureLayoutProbe(input: Pick<KeyedStreamInput, 'range' | 'offsets' | 'source'>): number {
  const first = listKeyGroupBlocks(input)[0];
  return first === undefined ? 0 : Math.min(first.end - first.offset, LAYOUT_PROBE_BYTES);
}

/**
 * Decides the layout of a code 3/12 keyed stream whose header was read, from `probe`: the first
 * measureLayoutProbe(input) bytes of its first block. Throws a DecodeError `unsupported-format` (at
 * the first block) when they fit neither layout.
 */
export function detectKeyGroupsLayout(input: KeyedStreamInput, header: KeyedStateHeader, probe: Uint8Array): KeyGroupsLayoutDecision {
  const blocks = listKeyGroupBlocks(input);
  const first = blocks[0];
  if (first === undefined) {
    if (input.offsets.length === 0) return { layout: 'heap', evidence: 'an empty key-group range (no data in either layout)' };
    return { layout: 'rocksdb-full', evidence: 'every key-group offset is 0, and the heap layout writes a block for every key group of its range' };
  }
  const bytes = probe;
  const whole = bytes.length === first.end - first.offset;
  const absolute = input.baseOffset + first.offset;
  const stateCount = header.states.length;
  const heap = testHeapLayout(bytes, first.keyGroup, stateCount, header.compressed);
  const full = testFullLayout(bytes, first.keyGroup, stateCount, header.compressed, input.maxParallelism > 128 ? 2 : 1, whole, input.file, absolute);
  if (full.fits && !heap.fits) return { layout: 'rocksdb-full', evidence: full.evidence };
  if (heap.fits && !full.fits) return { layout: 'heap', evidence: heap.evidence };
  if (heap.fits && full.fits) {
    // both fit only by accident of the bytes (a heap block of key group 0 whose first state id passes as
    // a key length): the full layout wins only when it framed the whole block up to its end mark
    return full.exact ? { layout: 'rocksdb-full', evidence: full.evidence } : { layout: 'heap', evidence: heap.evidence };
  }
  throw new DecodeError({
    code: 'unsupported-format',
    detail:
      `expected the first key-group block (key group ${first.keyGroup}) of this code 3/12 keyed handle in the heap snapshot layout or the RocksDB full-snapshot layout, ` +
      `found neither: heap layout: ${heap.evidence}; RocksDB full-snapshot layout: ${full.evidence}`,
    file: input.file,
    offset: absolute,
  });
}

interface LayoutTest {
  fits: boolean;
  evidence: string;
  /** full layout only: the whole block framed, ending with the end mark at its last byte */
  exact?: boolean;
}

function startsWithSnappyIdentifier(bytes: Uint8Array, at: number): boolean {
  return SNAPPY_STREAM_IDENTIFIER.every((b, i) => bytes[at + i] === b);
}

/** The heap layout: `i32` key group of the offset, then (uncompressed) an `i16` state id below the state count, or (compressed) a Snappy stream. */
function testHeapLayout(bytes: Uint8Array, keyGroup: number, stateCount: number, compressed: boolean): LayoutTest {
  if (bytes.length < 4) return { fits: false, evidence: `a ${bytes.length}-byte block cannot hold the i32 key group` };
  const kg = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getInt32(0);
  if (kg !== keyGroup) return { fits: false, evidence: `expected i32 key group ${keyGroup} at the block start, found ${kg}` };
  if (compressed) {
    return startsWithSnappyIdentifier(bytes, 4)
      ? { fits: true, evidence: `i32 key group ${keyGroup} then a Snappy-framed state chunk` }
      : { fits: false, evidence: `i32 key group ${keyGroup}, but no Snappy stream identifier after it` };
  }
  if (bytes.length < 6)
    return stateCount === 0
      ? { fits: true, evidence: `i32 key group ${keyGroup} and no states` }
      : { fits: false, evidence: 'no state id after the key group' };
  const id = ((bytes[4]! << 24) >> 16) | bytes[5]!;
  if (id < 0 || id >= stateCount) return { fits: false, evidence: `i32 key group ${keyGroup}, then state id ${id} (expected below ${stateCount})` };
  return { fits: true, evidence: `i32 key group ${keyGroup} then state id ${id}` };
}

/** The RocksDB full-snapshot layout: framed entries of known states whose keys all carry the offset's key group as prefix. */
function testFullLayout(
  bytes: Uint8Array,
  keyGroup: number,
  stateCount: number,
  compressed: boolean,
  prefixBytes: number,
  whole: boolean,
  file: string,
  absolute: number,
): LayoutTest {
  if (compressed) {
    // each block is its own Snappy framed stream (the heap layout puts the i32 key group first, whose first byte is 0)
    return startsWithSnappyIdentifier(bytes, 0)
      ? { fits: true, evidence: 'the block is a Snappy framed stream from its first byte', exact: true }
      : { fits: false, evidence: `expected a Snappy stream identifier at the block start, found ${formatHex(bytes.subarray(0, 10), ' ')}` };
  }
  const r = new ByteReader(bytes, { file, baseOffset: absolute });
  const rows = new KeyedEntryRows();
  const cursor = createKeyGroupBlockCursor();
  try {
    readKeyGroupBlockPart(r, cursor, stateCount, prefixBytes, rows, !whole);
  } catch (e) {
    if (!isDecodeError(e)) throw e;
    return { fits: false, evidence: e.detail };
  }
  const entries = rows.length / ROW_FIELDS;
  if (entries === 0) {
    // a first entry larger than the probe: its state id, key length and key-group prefix still tell
    if (whole || bytes.length < 7) return { fits: false, evidence: 'no complete entry in the block' };
    const id = (bytes[0]! << 8) | bytes[1]!;
    const keyLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getInt32(2);
    const prefix = prefixBytes === 1 ? bytes[6]! & 0x7f : ((bytes[6]! & 0x7f) << 8) | (bytes[7] ?? 0);
    if (id >= stateCount || keyLength < prefixBytes || prefix !== keyGroup)
      return { fits: false, evidence: `state id ${id}, key length ${keyLength}, key-group prefix ${prefix} at the block start` };
    return { fits: true, evidence: `state id ${id} and a first key with key-group prefix ${keyGroup}, its entry longer than the ${bytes.length} bytes tested` };
  }
  for (let i = 0; i < entries; i++) {
    const keyStart = rows.data[i * ROW_FIELDS + 1]!;
    const prefix = prefixBytes === 1 ? bytes[keyStart]! & 0x7f : ((bytes[keyStart]! & 0x7f) << 8) | bytes[keyStart + 1]!;
    if (prefix !== keyGroup) return { fits: false, evidence: `entry ${i + 1} of the block has key-group prefix ${prefix}, expected ${keyGroup}` };
  }
  const exact = whole && cursor.done && r.position === bytes.length;
  if (whole && !exact)
    return {
      fits: false,
      evidence: cursor.done
        ? `the end mark FF FF at block byte ${r.position - 2}, ${bytes.length - r.position} bytes before the block ends`
        : 'no end mark FF FF at the block end',
    };
  return {
    fits: true,
    evidence: `${entries} entries of known state ids with key-group prefix ${keyGroup}${exact ? ', ending with FF FF at the block end' : ` in the first ${bytes.length} bytes`}`,
    exact,
  };
}
