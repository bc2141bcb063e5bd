import type { OpenedSavepoint } from '../core/flink';
import type { SavepointFiles } from '../core/io';
import { trackSourceReads, type ReadingStep } from './track-source-reads';

/** The savepoint's files as one step reads them (trackSourceReads on every source it hands out). */
export function trackSavepointReads(files: SavepointFiles, step: ReadingStep): SavepointFiles {
  return {
    name: files.name,
    warnings: files.warnings,
    metadata: trackSourceReads(files.metadata, step),
    files: files.files.map((f) => trackSourceReads(f, step)),
    ...(files.unreadable ? { unreadable: files.unreadable } : {}),
    resolveRelative(relativePath) {
      const source = files.resolveRelative(relativePath);
      return source === undefined ? undefined : trackSourceReads(source, step);
    },
    resolveAbsolute(absolutePath, recordedSize) {
      const found = files.resolveAbsolute?.(absolutePath, recordedSize);
      return found === undefined ? undefined : { ...found, source: trackSourceReads(found.source, step) };
    },
  };
}

/** An opened savepoint (read once per session) whose state streams are read for one step. */
export function trackOpenedSavepointReads(opened: OpenedSavepoint, step: ReadingStep): OpenedSavepoint {
  return {
    ...opened,
    files: trackSavepointReads(opened.files, step),
    resolveStreamHandle(handle, context) {
      const resolved = opened.resolveStreamHandle(handle, context);
      return { ...resolved, source: trackSourceReads(resolved.source, step) };
    },
  };
}
