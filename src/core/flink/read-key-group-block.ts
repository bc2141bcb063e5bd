import { isDecodeError, type ByteReader } from '../io';

/** The end-of-key-group mark (END_OF_KEY_GROUP_MARK, read as u16). */
export const END_OF_KEY_GROUP_MARK = 0xffff;
/** The flag set on the first key byte of the last entry of a state run. */
export const END_OF_STATE_RUN_FLAG = 0x80;

/** One key/value pair of a canonical key-group block, before decoding. */
export interface RawKeyedEntry {
  stateId: number;
  /** key bytes with the end-of-run flag cleared (a copy when the flag was set) */
  key: Uint8Array;
  /** absolute offset of the key bytes (in the block's stream; decompressed position for Snappy blocks) */
  keyOffset: number;
  value: Uint8Array;
  valueOffset: number;
}

/**
 * Reads one key-group block of the canonical format (spec §3.2): `u16` kv-state id, then entries
 * (`i32` key length + key, `i32` value length + value); the first key byte of the last entry of a
 * run carries 0x80, after which the next `u16` is either the next state id or FF FF (end).
 * `stateCount` bounds the state ids. Stops right after the end mark.
 */
export function readKeyGroupBlock(r: ByteReader, stateCount: number, keyGroupPrefixBytes: number): RawKeyedEntry[] {
  const entries: RawKeyedEntry[] = [];
  readKeyGroupBlockPart(r, createKeyGroupBlockCursor(), stateCount, keyGroupPrefixBytes, entries, false);
  return entries;
}

/** Where a block read in parts stands: the current state id and what comes next. */
export interface KeyGroupBlockCursor {
  stateId: number;
  expect: 'first-state' | 'entry' | 'next-state';
  /** the end mark was read */
  done: boolean;
}

export function createKeyGroupBlockCursor(): KeyGroupBlockCursor {
  return { stateId: -1, expect: 'first-state', done: false };
}

/**
 * Reads the entries of a key-group block that lie wholly in `r` (a window of the block, or all of
 * it), appending them to `out`, and returns the position after the last complete entry or state
 * id. With `more` (the block goes on after this window) a read running past the window ends the
 * part instead of failing; the caller reads the next window from the returned position. Without it,
 * every error is the whole block's, with the same text and offset.
 */
export function readKeyGroupBlockPart(r: ByteReader, cursor: KeyGroupBlockCursor, stateCount: number, keyGroupPrefixBytes: number, out: RawKeyedEntry[], more: boolean): number {
  let committed = r.position;
  try {
    for (;;) {
      if (cursor.expect !== 'entry') {
        const next = readStateId(r, stateCount, cursor.expect === 'first-state');
        if (next === END_OF_KEY_GROUP_MARK && cursor.expect === 'next-state') {
          cursor.done = true;
          return r.position;
        }
        cursor.stateId = next;
        cursor.expect = 'entry';
        committed = r.position;
      }
      const keyLenAt = r.position;
      const keyLen = r.readI32('key length');
      if (keyLen < keyGroupPrefixBytes) {
        throw r.error('invalid-value', `expected a key length of at least ${keyGroupPrefixBytes} (the key-group prefix), found ${keyLen}`, keyLenAt);
      }
      const keyOffset = r.absolutePosition;
      let key = r.readBytes(keyLen, 'key bytes');
      const valueLenAt = r.position;
      const valueLen = r.readI32('value length');
      if (valueLen < 0) throw r.error('invalid-value', `expected a non-negative value length, found ${valueLen}`, valueLenAt);
      const valueOffset = r.absolutePosition;
      const value = r.readBytes(valueLen, 'value bytes');
      const last = (key[0]! & END_OF_STATE_RUN_FLAG) !== 0;
      if (last) {
        key = key.slice();
        key[0] = key[0]! & ~END_OF_STATE_RUN_FLAG;
      }
      out.push({ stateId: cursor.stateId, key, keyOffset, value, valueOffset });
      cursor.expect = last ? 'next-state' : 'entry';
      committed = r.position;
    }
  } catch (e) {
    // the window ended inside an entry: the next window starts at that entry
    if (more && isDecodeError(e) && e.code === 'truncated') return committed;
    throw e;
  }
}

function readStateId(r: ByteReader, stateCount: number, first: boolean): number {
  const at = r.position;
  const id = r.readU16(first ? 'kv-state id' : 'kv-state id or end-of-key-group mark');
  if (id === END_OF_KEY_GROUP_MARK && !first) return id;
  if (id >= stateCount) {
    throw r.error('invalid-value', `expected a kv-state id below ${stateCount}${first ? '' : ' or the end mark FF FF'}, found ${id}`, at);
  }
  return id;
}
