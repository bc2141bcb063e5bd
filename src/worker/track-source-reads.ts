import type { ByteSource } from '../core/io';
import type { Cancellation } from './cancellation';

/** The long step currently reading: its cancellation and its byte counter for progress. */
export interface ReadingStep {
  cancel: Cancellation;
  /** called after each read with the bytes it returned */
  onRead(bytes: number, source: string): void;
}

/**
 * The same source, but every read first checks the running steps for cancellation and then reports
 * its bytes as their progress. Steps are looked up per read, so one source serves many steps.
 */
export function trackSourceReads(source: ByteSource, runningSteps: () => Iterable<ReadingStep>): ByteSource {
  return {
    name: source.name,
    size: source.size,
    async read(offset, length) {
      for (const step of runningSteps()) step.cancel.check();
      const bytes = await source.read(offset, length);
      for (const step of runningSteps()) step.onRead(bytes.length, source.name);
      return bytes;
    },
  };
}
