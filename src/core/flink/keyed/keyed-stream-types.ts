import type { ByteSource } from '../../io';
import type { KeyGroupRange } from '../metadata/metadata-types';

export interface KeyedStreamInput {
  operatorId: string;
  subtask: number;
  maxParallelism: number;
  /** the handle's bytes (byte 0 = stream start) */
  source: ByteSource;
  /** file named in errors and byte ranges, and the absolute offset of source byte 0 in it */
  file: string;
  baseOffset: number;
  range: KeyGroupRange;
  /** one per key group of the range; 0 = no data */
  offsets: number[];
}

/** A window read under way: where, how long, and its bytes when they arrive. */
export interface WindowRead {
  offset: number;
  length: number;
  bytes: Promise<Uint8Array>;
}
