import type { ByteSource } from '../../io';

/** Where a handle is used, for error paths and warnings. */
export interface StreamHandleContext {
  operatorId?: string;
  subtask?: number;
  /** e.g. `managed keyed state` */
  role?: string;
}

export interface ResolvedStreamHandle {
  /** the handle's bytes: byte 0 is the handle's first byte */
  source: ByteSource;
  /** the file errors should name (`_metadata` for inline data, the physical file for segments) */
  file: string;
  /** absolute offset of source byte 0 inside `file` */
  baseOffset: number;
  warnings: string[];
}
