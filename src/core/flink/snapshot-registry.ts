import type { SnapshotReader } from './snapshot-types';
import { registerBuiltinSnapshotReaders } from './snapshots';

/**
 * Maps binary Java snapshot class names to SnapshotReaders. `flink/` knows serializers only
 * through this registry; other modules (e.g. `protobuf/`) add theirs with `register`.
 */
export interface SnapshotRegistry {
  /** Adds (or replaces) the reader for each of `reader.classNames`. */
  register(reader: SnapshotReader): void;
  /** The reader for a binary class name such as `…LongSerializer$LongSerializerSnapshot`. */
  lookup(className: string): SnapshotReader | undefined;
  /** Every registered class name, sorted. */
  listClassNames(): string[];
}

export interface CreateSnapshotRegistryOptions {
  /** register the built-in Flink snapshot readers (default true) */
  builtins?: boolean;
}

export function createSnapshotRegistry(options: CreateSnapshotRegistryOptions = {}): SnapshotRegistry {
  const readers = new Map<string, SnapshotReader>();
  const registry: SnapshotRegistry = {
    register(reader) {
      for (const name of reader.classNames) readers.set(name, reader);
    },
    lookup(className) {
      return readers.get(className);
    },
    listClassNames() {
      return [...readers.keys()].sort();
    },
  };
  if (options.builtins !== false) registerBuiltinSnapshotReaders(registry);
  return registry;
}
