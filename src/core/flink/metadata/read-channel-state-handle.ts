/**
 * Reads one channel state handle (unaligned-checkpoint in-flight data):
 * serializer V1 (metadata V3–V5) or V2 (metadata V6+, leading type byte).
 */
import type { ByteReader } from '../../io';
import { readHandleOffsets } from './read-handle-primitives';
import { readStreamHandle } from './read-stream-handle';
import type { ChannelStateHandle } from './metadata-types';

export type ChannelDirection = 'input' | 'output';

export function readChannelStateHandle(r: ByteReader, metadataVersion: number, direction: ChannelDirection): ChannelStateHandle {
  if (metadataVersion < 6) return readV1Body(r, direction);
  const at = r.position;
  const type = r.readU8('channel state handle type');
  const expected = direction === 'input' ? [1, 3] : [2, 4];
  if (type !== expected[0] && type !== expected[1]) {
    const names = direction === 'input' ? '1 (input channel) or 3 (merged input channels)' : '2 (result subpartition) or 4 (merged result subpartitions)';
    throw r.error('invalid-value', `expected channel state handle type ${names}, found ${type}`, at);
  }
  if (type <= 2) return readV1Body(r, direction);
  const subtaskIndex = r.readI32('channel state subtask index');
  const stateSize = r.readI64('channel state size');
  const delegate = readStreamHandle(r, 1);
  const lengthAt = r.position;
  const serializedOffsetsLength = r.readI32('length of serialized channel offsets');
  if (serializedOffsetsLength < 0) {
    throw r.error('invalid-value', `expected a non-negative length of serialized channel offsets, found ${serializedOffsetsLength}`, lengthAt);
  }
  r.skip(serializedOffsetsLength, 'serialized channel offsets');
  return { kind: direction === 'input' ? 'merged-input-channel' : 'merged-result-subpartition', subtaskIndex, stateSize, delegate, serializedOffsetsLength };
}

function readV1Body(r: ByteReader, direction: ChannelDirection): ChannelStateHandle {
  const subtaskIndex = r.readI32('channel state subtask index');
  const info: [number, number] =
    direction === 'input'
      ? [r.readI32('input gate index'), r.readI32('input channel index')]
      : [r.readI32('result partition index'), r.readI32('result subpartition index')];
  const count = r.readCount('channel state offsets', 8);
  const offsets = readHandleOffsets(r, count, 'channel state offsets');
  const stateSize = r.readI64('channel state size');
  const delegate = readStreamHandle(r, 1);
  return { kind: direction === 'input' ? 'input-channel' : 'result-subpartition', subtaskIndex, info, offsets, stateSize, delegate };
}
