/**
 * The one read counter: the same source, each of its reads (`read` and `readInto`) told to an observer
 * with the bytes it returned. The CLI counts the bytes `stats` reads with it; the worker counts a
 * step's progress and checks the step's cancellation (`beforeRead`) with it.
 */
import type { ByteSource } from './byte-source';

export interface ReadObserver {
  /** before each read; what it throws rejects the read (a cancelled step) */
  beforeRead?(): void;
  /** after each read that returned, with the bytes it returned (a read that fails, e.g. past the end, reads nothing) */
  onRead(bytes: number, source: string): void;
}

export function observeSourceReads(source: ByteSource, observer: ReadObserver): ByteSource {
  const readInto = source.readInto?.bind(source);
  return {
    name: source.name,
    size: source.size,
    async read(offset, length) {
      observer.beforeRead?.();
      const bytes = await source.read(offset, length);
      observer.onRead(bytes.length, source.name);
      return bytes;
    },
    // (the core's whole-state scans read into reused buffers where a source offers it)
    ...(readInto === undefined
      ? {}
      : {
          async readInto(offset: number, length: number, target: Uint8Array) {
            observer.beforeRead?.();
            const bytes = await readInto(offset, length, target);
            observer.onRead(bytes.length, source.name);
            return bytes;
          },
        }),
  };
}
