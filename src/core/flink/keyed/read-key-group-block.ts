import { isDecodeError, type ByteReader } from '../../io';

/** The end-of-key-group mark (END_OF_KEY_GROUP_MARK, read as u16). */
export const END_OF_KEY_GROUP_MARK = 0xffff;
/** The flag set on the first key byte of the last entry of a state run. */
export const END_OF_STATE_RUN_FLAG = 0x80;

/**
 * The key/value pairs of a canonical key-group block (or window of one) before decoding, five
 * numbers per entry (no object per entry): kv-state id, then the start and end of the key bytes
 * and of the value bytes, as positions in the reader's bytes. The first key byte of the last entry
 * of a state run still carries END_OF_STATE_RUN_FLAG. Positions index a Uint8Array, so they stay
 * below 2^32: Uint32 holds them, and they come out as small integers (read from a Float64Array they
 * were doubles, and the scan they were handed to was re-optimized for doubles, ~30 % slower).
 */
export class KeyedEntryRows {
  /** grown by doubling: a table reused for a whole stream grows once, a fresh one per run starts small */
  data = new Uint32Array(ROW_FIELDS * 64);
  /** numbers in use (ROW_FIELDS per entry) */
  length = 0;

  push(stateId: number, keyStart: number, keyEnd: number, valueStart: number, valueEnd: number): void {
    let at = this.length;
    if (at + ROW_FIELDS > this.data.length) {
      const grown = new Uint32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    const d = this.data;
    d[at++] = stateId;
    d[at++] = keyStart;
    d[at++] = keyEnd;
    d[at++] = valueStart;
    d[at++] = valueEnd;
    this.length = at;
  }
}
export const ROW_FIELDS = 5;

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
 * Reads a key-group block of the canonical format: `u16` kv-state id, then entries
 * (`i32` key length + key, `i32` value length + value); the first key byte of the last entry of a
 * run carries 0x80, after which the next `u16` is either the next state id or FF FF (end).
 * `stateCount` bounds the state ids; a whole block stops right after the end mark.
 *
 * Frames the entries that lie wholly in `r` (a window of the block, or all of it) into `out`, and returns the position after the last complete entry or state
 * id. With `more` (the block goes on after this window) a read running past the window ends the
 * part instead of failing; the caller reads the next window from the returned position. Without it,
 * every error is the whole block's, with the same text and offset.
 */
export function readKeyGroupBlockPart(
  r: ByteReader,
  cursor: KeyGroupBlockCursor,
  stateCount: number,
  keyGroupPrefixBytes: number,
  out: KeyedEntryRows,
  more: boolean,
): number {
  let committed = r.position;
  try {
    for (;;) {
      if (cursor.expect !== 'entry') {
        // the window ends before the state id: the next window starts here (no error built and caught per window)
        if (more && r.bytes.length - r.position < 2) return committed;
        const next = readStateId(r, stateCount, cursor.expect === 'first-state');
        if (next === END_OF_KEY_GROUP_MARK && cursor.expect === 'next-state') {
          cursor.done = true;
          return r.position;
        }
        cursor.stateId = next;
        cursor.expect = 'entry';
        committed = r.position;
      }
      // an entry wholly in the window with sane lengths, read without the checked reads (anything else
      // takes them below, for the exact error)
      const b = r.bytes;
      const p = r.position;
      const keyEnd = p + 4 + ((b[p]! << 24) | (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!);
      if (p + 4 <= b.length && keyEnd - p - 4 >= keyGroupPrefixBytes && keyEnd + 4 <= b.length) {
        const valueEnd = keyEnd + 4 + ((b[keyEnd]! << 24) | (b[keyEnd + 1]! << 16) | (b[keyEnd + 2]! << 8) | b[keyEnd + 3]!);
        if (valueEnd >= keyEnd + 4 && valueEnd <= b.length) {
          out.push(cursor.stateId, p + 4, keyEnd, keyEnd + 4, valueEnd);
          r.skip(valueEnd - p, 'entry');
          cursor.expect = (b[p + 4]! & END_OF_STATE_RUN_FLAG) !== 0 ? 'next-state' : 'entry';
          committed = r.position;
          continue;
        }
      }
      // the window ends inside this entry, its lengths sane so far: the next window starts at it (the checked
      // reads below would throw `truncated` for the same cut; they stay for the errors of a bad length)
      if (more && (p + 4 > b.length || (keyEnd - p - 4 >= keyGroupPrefixBytes && endsPastWindow(b, keyEnd)))) return committed;
      const keyLenAt = r.position;
      const keyLen = r.readI32('key length');
      if (keyLen < keyGroupPrefixBytes) {
        throw r.error('invalid-value', `expected a key length of at least ${keyGroupPrefixBytes} (the key-group prefix), found ${keyLen}`, keyLenAt);
      }
      const keyStart = r.position;
      r.skip(keyLen, 'key bytes');
      const valueLenAt = r.position;
      const valueLen = r.readI32('value length');
      if (valueLen < 0) throw r.error('invalid-value', `expected a non-negative value length, found ${valueLen}`, valueLenAt);
      const valueStart = r.position;
      r.skip(valueLen, 'value bytes');
      const last = (r.bytes[keyStart]! & END_OF_STATE_RUN_FLAG) !== 0;
      out.push(cursor.stateId, keyStart, keyStart + keyLen, valueStart, valueStart + valueLen);
      cursor.expect = last ? 'next-state' : 'entry';
      committed = r.position;
    }
  } catch (e) {
    // the window ended inside an entry: the next window starts at that entry
    if (more && isDecodeError(e) && e.code === 'truncated') return committed;
    throw e;
  }
}

/** Whether the entry whose key ends at `keyEnd` runs past the window: its value length, or its value (a sane length), is cut off. */
function endsPastWindow(b: Uint8Array, keyEnd: number): boolean {
  if (keyEnd + 4 > b.length) return true;
  const valueLength = (b[keyEnd]! << 24) | (b[keyEnd + 1]! << 16) | (b[keyEnd + 2]! << 8) | b[keyEnd + 3]!;
  return valueLength >= 0 && keyEnd + 4 + valueLength > b.length;
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
