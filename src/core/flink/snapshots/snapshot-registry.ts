import type { SnapshotInferrer, SnapshotReader, SnapshotRegistry } from './snapshot-types';
import { registerBuiltinSnapshotReaders } from './builtin-snapshot-readers';

export interface CreateSnapshotRegistryOptions {
  /** register the built-in Flink snapshot readers (default true) */
  builtins?: boolean;
}

export function createSnapshotRegistry(options: CreateSnapshotRegistryOptions = {}): SnapshotRegistry {
  const readers = new Map<string, SnapshotReader>();
  const inferrers: SnapshotInferrer[] = [];
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
    registerInferrer(inferrer) {
      if (!inferrers.includes(inferrer)) inferrers.push(inferrer);
    },
    listInferrers() {
      return inferrers;
    },
  };
  if (options.builtins !== false) registerBuiltinSnapshotReaders(registry);
  return registry;
}
