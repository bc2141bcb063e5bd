import { ByteReader, decodeSnappyFramed, isDecodeError } from '../../io';
import { throwIfCancelled } from '../cancel-signal';
import type { KeyedStateHeader, StateEntry, StateMetaInfo } from '../savepoint/inspection-types';
import { isWantedState } from '../is-wanted-state';
import { listKeyGroupBlocks, type KeyedReadOptions } from './read-canonical-keyed-entries';
import type { KeyedStreamInput } from './keyed-stream-types';
import type { SerializerSnapshot, ValueCodec, ValueMode } from '../snapshots/snapshot-types';

/**
 * Streams the entries of a heap snapshot stream (keyed handle code 12/3):
 * per key group `i32` key group, then one chunk per state (`i16` state id + body), each chunk
 * its own Snappy-framed stream when compressed. Bodies have no lengths, so every serializer of a
 * state must be decodable; otherwise its key group cannot be read past that state. The entries come
 * in batches: one per state chunk of a key group with entries of a wanted state (a chunk is decoded whole before any of its entries is given).
 */
export async function* readHeapKeyedEntryBatches(
  input: KeyedStreamInput,
  header: KeyedStateHeader,
  options: KeyedReadOptions = {},
): AsyncGenerator<StateEntry[]> {
  for (const block of listKeyGroupBlocks(input)) {
    throwIfCancelled(options.signal);
    const raw = await input.source.read(block.offset, block.end - block.offset);
    const absolute = input.baseOffset + block.offset;
    const r = new ByteReader(raw, { file: input.file, baseOffset: absolute });
    const kgAt = r.position;
    const kg = r.readI32('key group');
    if (kg !== block.keyGroup) throw r.error('invalid-value', `expected key group ${block.keyGroup} at its offset, found ${kg}`, kgAt);
    const chunks = header.compressed ? splitSnappyStreams(r, header.states.length) : undefined;
    for (let i = 0; i < header.states.length; i++) {
      const cr = chunks ? chunks[i]! : r;
      const idAt = cr.position;
      const stateId = cr.readI16('state id');
      const state = header.states[stateId];
      if (!state) throw cr.error('invalid-value', `expected a state id below ${header.states.length}, found ${stateId}`, idAt);
      const entries = readStateChunk(cr, state, header.keySerializer, options.values?.mode);
      if (!isWantedState(options.state, state.name) || entries.length === 0) continue;
      const file = cr.file ?? input.file;
      const batch: StateEntry[] = [];
      for (const e of entries) batch.push({ operatorId: input.operatorId, state: state.name, subtask: input.subtask, keyGroup: kg, ...e, file });
      yield batch;
    }
  }
}

type ChunkEntry = Pick<StateEntry, 'key' | 'namespace' | 'userKey' | 'value' | 'valueRange'>;

function requireCodec(r: ByteReader, s: SerializerSnapshot | undefined, role: string, state: string): ValueCodec {
  if (s?.codec && s.status !== 'unknown') return s.codec;
  const why = !s ? 'is missing' : s.status === 'unknown' ? `is an unknown snapshot (${s.className} v${s.version})` : `(${s.typeLabel}) has no value decoder`;
  throw r.error(
    'unsupported-format',
    `expected a decodable ${role} serializer for heap state ${state}, found it ${why}; heap snapshot entries have no lengths, so this key group cannot be read further`,
  );
}

function readStateChunk(r: ByteReader, state: StateMetaInfo, keySerializer: SerializerSnapshot, mode: ValueMode | undefined): ChunkEntry[] {
  const count = r.readCount(`entries of state ${state.name}`, 1);
  const out: ChunkEntry[] = [];
  const value = requireCodec(r, state.serializers.VALUE_SERIALIZER, 'value', state.name);
  if (state.backendStateType === 'PRIORITY_QUEUE') {
    for (let i = 0; i < count; i++) {
      const at = r.absolutePosition;
      const element = value.decode(r);
      const range = { offset: at, length: r.absolutePosition - at };
      out.push(
        element.kind === 'timer'
          ? { key: element.key, namespace: element.namespace, value: element, valueRange: range }
          : { value: element, valueRange: range },
      );
    }
    return out;
  }
  const ns = requireCodec(r, state.serializers.NAMESPACE_SERIALIZER, 'namespace', state.name);
  const key = requireCodec(r, keySerializer, 'key', state.name);
  for (let i = 0; i < count; i++) {
    const namespace = ns.decode(r);
    const k = key.decode(r);
    const at = r.absolutePosition;
    // a map's codec says where each entry's value lies: a user key's entry gets its own value bytes, not the whole map's
    const withRanges = state.kind === 'MAP' && value.decodeWithEntryRanges ? value.decodeWithEntryRanges(r, mode) : undefined;
    const v = withRanges ? withRanges.value : value.decode(r, mode);
    const valueRange = { offset: at, length: r.absolutePosition - at };
    if (state.kind === 'MAP' && v.kind === 'map') {
      const ranges = withRanges?.entryRanges;
      v.entries.forEach((m, j) =>
        out.push({ key: k, namespace, userKey: m.key, value: m.value.kind === 'null' ? null : m.value, valueRange: ranges?.[j] ?? valueRange }),
      );
    } else {
      out.push({ key: k, namespace, value: v, valueRange });
    }
  }
  return out;
}

/** Splits the rest of a compressed heap block into its per-state Snappy framed streams (each opens with an identifier chunk). */
function splitSnappyStreams(r: ByteReader, count: number): ByteReader[] {
  const starts: number[] = [];
  const begin = r.position;
  let p = begin;
  while (p + 4 <= r.length && starts.length <= count) {
    const type = r.bytes[p]!;
    const len = r.bytes[p + 1]! | (r.bytes[p + 2]! << 8) | (r.bytes[p + 3]! << 16);
    if (type === 0xff) {
      if (starts.length === count) break;
      starts.push(p);
    }
    p += 4 + len;
  }
  if (starts.length !== count || starts[0] !== begin) {
    throw r.error('corrupt-compression', `expected ${count} Snappy framed state chunks in this key group, found ${starts.length}`, begin);
  }
  return starts.map((s, i) => {
    const end = i + 1 < starts.length ? starts[i + 1]! : p;
    try {
      const data = decodeSnappyFramed(r.bytes.subarray(s, Math.min(end, r.length)), { identifier: 'required', file: r.file ?? 'state file' }).data;
      return new ByteReader(data, { file: `${r.file ?? 'state file'} (Snappy chunk at ${r.baseOffset + s})` });
    } catch (e) {
      if (isDecodeError(e)) throw e.withContext({ offset: r.baseOffset + s });
      throw e;
    }
  });
}
