/**
 * One meaning for "the savepoint's size" wherever the app shows it (top bar, Overview, Recent sessions):
 * `_metadata` plus every state file it references (the inspection's totalSize, also right for a savepoint
 * read by URL), with its parts labelled, and the archive's own size apart when the input was one.
 */
import type { SavepointInspection } from '../core/flink';
import type { OpenedSession } from '../worker';
import { formatBytes } from './format';

export interface SavepointSize {
  /** `_metadata` + the state files it references */
  total: number;
  metadata: number | undefined;
  stateFiles: number | undefined;
  /** the archive's size when the savepoint was given as one */
  archive: number | undefined;
}

export function describeSavepointSize(inspection: SavepointInspection, session: OpenedSession | null): SavepointSize {
  const metadata = session?.files.find((f) => f.role === 'savepoint-metadata')?.size;
  const archive = session?.files.find((f) => f.role === 'savepoint-archive')?.size;
  return { total: inspection.totalSize, metadata, stateFiles: metadata === undefined ? undefined : inspection.totalSize - metadata, archive };
}

/** `_metadata 4.9 KiB + state files 233 KiB · archive 120 KiB` */
export function formatSavepointSizeParts(size: SavepointSize, missingFiles = 0): string {
  const missing = missingFiles > 0 ? ` (${missingFiles} missing, not counted)` : '';
  const parts =
    size.metadata === undefined
      ? `the _metadata and its state files${missing}`
      : `_metadata ${formatBytes(size.metadata)} + state files ${formatBytes(size.stateFiles ?? 0)}${missing}`;
  return size.archive === undefined ? parts : `${parts} · archive ${formatBytes(size.archive)}`;
}

/** What the input is called where the app names it (top bar chip, size card): the inspection's type, "savepoint" until it is known. */
export function nameInputType(inspection: Pick<SavepointInspection, 'type'> | undefined): 'savepoint' | 'checkpoint' {
  return inspection?.type === 'checkpoint' ? 'checkpoint' : 'savepoint';
}
