/**
 * Reads one master (hook) state of `_metadata`: magic, length L, then exactly L bytes
 * of payload (version, name, data).
 */
import type { ByteReader } from '../../io';
import type { MasterState } from './metadata-types';

export const MASTER_STATE_MAGIC = 0xc96b1696;

export function readCheckpointMetadataMasterState(r: ByteReader): MasterState {
  const magicAt = r.position;
  const magic = r.readU32('master state magic number');
  if (magic !== MASTER_STATE_MAGIC) {
    throw r.error('bad-magic', `expected master state magic number 0xc96b1696, found 0x${magic.toString(16).padStart(8, '0')}`, magicAt);
  }
  const lengthAt = r.position;
  const length = r.readI32('master state length');
  if (length <= 0) throw r.error('invalid-value', `expected a positive master state length, found ${length}`, lengthAt);
  const payload = r.subReader(length, `master state payload (${length} bytes)`);
  const version = payload.readI32('master state version');
  const name = payload.readUtf('master state name');
  const dataLengthAt = payload.position;
  const dataLength = payload.readI32('master state data length');
  if (dataLength < 0) throw payload.error('invalid-value', `expected a non-negative master state data length, found ${dataLength}`, dataLengthAt);
  const data = payload.readBytes(dataLength, 'master state data');
  if (!payload.atEnd) {
    throw payload.error(
      'invalid-value',
      `expected the master state "${name}" to end after its data, found ${payload.remaining} more bytes inside its declared length ${length}`,
    );
  }
  return { name, version, data };
}
