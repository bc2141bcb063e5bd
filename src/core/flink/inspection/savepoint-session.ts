/**
 * One opened savepoint and what is read with it: the savepoint (`_metadata` read once), the snapshot
 * registry its headers and values are read with, and its inspection (computed once, on first request).
 * A command opens it once and passes it on (docs/architecture.md).
 */
import type { SavepointFiles } from '../../io';
import type { SnapshotRegistry } from '../snapshots/snapshot-types';
import { inspectSavepoint, type InspectSavepointOptions } from './inspect-savepoint';
import type { SavepointInspection } from '../savepoint/inspection-types';
import { openSavepoint, type OpenedSavepoint } from '../savepoint/open-savepoint';

export interface SavepointSession {
  readonly files: SavepointFiles;
  readonly opened: OpenedSavepoint;
  readonly registry: SnapshotRegistry;
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
  return {
    files: opened.files,
    opened,
    registry,
    inspect(options = {}) {
      const countEntries = options.countEntries === true;
      let pending = inspections.get(countEntries);
      if (pending === undefined) {
        pending = inspectSavepoint(opened, registry, options);
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
