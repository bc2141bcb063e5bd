import { observeSourceReads, type ByteSource } from '../core/io';
import type { Cancellation } from './cancellation';

/** One long step that reads: its own cancellation and its own byte counter. */
export interface ReadingStep {
  cancel: Cancellation;
  /** called after each read made for this step with the bytes it returned */
  onRead(bytes: number, source: string): void;
  /** false once the step has ended: a source it wrapped then neither checks nor counts */
  readonly active: boolean;
}

/**
 * The same source, read for one step: each read first checks that step's cancellation and then
 * counts its bytes as that step's progress. Every step wraps the sources it reads itself, so
 * concurrent steps count only their own reads and a cancelled step never fails another.
 */
export function trackSourceReads(source: ByteSource, step: ReadingStep): ByteSource {
  return observeSourceReads(source, {
    beforeRead() {
      if (step.active) step.cancel.check();
    },
    onRead(bytes, name) {
      if (step.active) step.onRead(bytes, name);
    },
  });
}
