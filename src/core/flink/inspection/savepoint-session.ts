/**
 * One opened savepoint and what is read with it: the savepoint (`_metadata` read once), the snapshot
 * registry its headers and values are read with, its subtasks' stream headers (read once, by the inspection
 * or by the first scan handed `headers`), and its inspection (computed once, on first request).
 * A command opens it once and passes it on (docs/architecture.md).
 */
import type { SavepointFiles } from '../../io';
import type { SnapshotRegistry } from '../snapshots/snapshot-types';
import type { SubtaskHeaderCache } from '../scan/scan-types';
import { createSubtaskHeaderCache } from '../scan/sources/scan-context';
import { inspectSavepoint, type InspectSavepointOptions } from './inspect-savepoint';
import type { SavepointInspection } from '../savepoint/inspection-types';
import { openSavepoint, type OpenedSavepoint } from '../savepoint/open-savepoint';

export interface SavepointSession {
  readonly files: SavepointFiles;
  readonly opened: OpenedSavepoint;
  readonly registry: SnapshotRegistry;
  /**
   * The subtasks' stream headers (and RocksDB native snapshots) read with `registry`: the inspection reads
   * through it, and a scan handed it (`scanState`'s `headers`) reads no header the session has read. Kept for
   * the session's life (one small record per subtask stream).
   */
  readonly headers: SubtaskHeaderCache;
  /**
   * The inspection (inspectSavepoint over `opened`), computed once per kind (headers only, or with entry
   * counts) and kept; a failed or cancelled one is not kept. `signal` cancels the first computation only.
   */
  inspect(options?: InspectSavepointOptions): Promise<SavepointInspection>;
}

/** Reads `_metadata` (openSavepoint) and starts a session on it. */
export async function openSavepointSession(files: SavepointFiles, registry: SnapshotRegistry): Promise<SavepointSession> {
  return createSavepointSession(await openSavepoint(files), registry);
}

/** A session on a savepoint already opened. */
export function createSavepointSession(opened: OpenedSavepoint, registry: SnapshotRegistry): SavepointSession {
  const inspections = new Map<boolean, Promise<SavepointInspection>>();
  const headers = createSubtaskHeaderCache();
  return {
    files: opened.files,
    opened,
    registry,
    headers,
    inspect(options = {}) {
      const countEntries = options.countEntries === true;
      let pending = inspections.get(countEntries);
      if (pending === undefined) {
        pending = inspectSavepoint(opened, registry, { ...options, headers });
        inspections.set(countEntries, pending);
        const kept = pending;
        kept.catch(() => {
          if (inspections.get(countEntries) === kept) inspections.delete(countEntries);
        });
      }
      return pending;
    },
  };
}
