import type { KeyedEntryRun, StateEntry } from '../../core/flink';
import { readProtobufFrameLength } from '../../core/protobuf';
import { getScanningCodecSchema, type ScannedFrame } from './register-scanning-protobuf-readers';

/**
 * One run of keyed entries for a scan that keeps none, without an object per entry where it can:
 * a row whose key is surely valid (KeyedEntryRun.checkRowKey) and whose value is one value of a
 * scanning Protobuf codec (registerScanningProtobufReaders) goes to `onRow` with the frame that
 * codec would have handed its sink (`frame` undefined where the codec finds none: a value too short
 * or a length the settings refuse; the frame object is reused, use it before returning). Every other
 * row is decoded as iterating the run decodes it (its frames go to the codec's sink) and goes to
 * `onEntry`. Same rows, order and errors as `for (const e of run) onEntry(e)`.
 */
export function walkKeyedEntryRun(run: KeyedEntryRun, onEntry: (e: StateEntry) => void, onRow: (run: KeyedEntryRun, i: number, frame: ScannedFrame | undefined) => void): void {
  const frame = SCRATCH;
  try {
    run.walkRows(getScanningCodecSchema, onEntry, (i, schema) => {
      const start = run.valueStart(i);
      const end = run.valueEnd(i);
      const length = readProtobufFrameLength(run.bytes, start, end, schema.content.settings.maxMessageSize);
      if (length < 0) {
        onRow(run, i, undefined);
        return;
      }
      frame.offset = run.baseOffset + start;
      frame.bytes = run.bytes;
      frame.start = start + 4;
      frame.end = start + 4 + Math.min(length, end - start - 4);
      frame.length = length;
      frame.content = schema.content;
      frame.index = schema.index;
      onRow(run, i, frame);
    });
  } finally {
    // the scratch frame must not keep a read buffer alive
    frame.bytes = EMPTY;
  }
}

const EMPTY = new Uint8Array(0);
const SCRATCH = { offset: 0, bytes: EMPTY, start: 0, end: 0, length: 0 } as ScannedFrame;
