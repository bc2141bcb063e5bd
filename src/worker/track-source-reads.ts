import type { ByteSource } from '../core/io';
import type { Cancellation } from './cancellation';

/** The long step currently reading: its cancellation and its byte counter for progress. */
export interface ReadingStep {
  cancel: Cancellation;
  /** called after each read with the bytes it returned */
  onRead(bytes: number, source: string): void;
}

/**
 * The same source, but every read first checks the running step for cancellation and then reports
 * its bytes for progress. The step is looked up per read, so one source serves many steps.
 */
export function trackSourceReads(source: ByteSource, currentStep: () => ReadingStep | null): ByteSource {
  return {
    name: source.name,
    size: source.size,
    async read(offset, length) {
      currentStep()?.cancel.check();
      const bytes = await source.read(offset, length);
      currentStep()?.onRead(bytes.length, source.name);
      return bytes;
    },
  };
}
