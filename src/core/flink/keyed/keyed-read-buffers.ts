import type { KeyedEntryRows } from './read-key-group-block';

/**
 * The buffers a whole-state scan (KeyedReadOptions.reuseReadBuffers) reads keyed state into and
 * frames it with: the two slice buffers taken in turn (one read ahead while the other is decoded),
 * the two window buffers of streamed blocks, and the row table. One set may serve stream after
 * stream (a scan of many subtasks allocates them once); a stream waits for its read-ahead before it
 * ends, so the next stream never reads into a buffer a read still fills.
 */
export class KeyedReadBuffers {
  readonly slices: (Uint8Array | undefined)[] = [undefined, undefined];
  sliceTurn = 0;
  readonly windows: (Uint8Array | undefined)[] = [undefined, undefined];
  windowTurn = 0;
  rows: KeyedEntryRows | undefined;
}
