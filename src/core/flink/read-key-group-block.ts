import type { ByteReader } from '../io';

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
  let stateId = readStateId(r, stateCount, true);
  for (;;) {
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
    entries.push({ stateId, key, keyOffset, value, valueOffset });
    if (last) {
      const next = readStateId(r, stateCount, false);
      if (next === END_OF_KEY_GROUP_MARK) return entries;
      stateId = next;
    }
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
