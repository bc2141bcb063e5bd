/**
 * The files a savepoint's handles name, with the size each handle records, keyed by the path they
 * resolve to next to `_metadata` (relative handles: their relative path; absolute and file-merging
 * handles: the base name, as openSavepoint resolves them). For a merged physical file the size is
 * the end of its last segment. Used to open inputs that cannot be listed, such as an HTTP folder.
 */
import { baseNameOf } from '../../io';
import { listOperatorStreamHandles } from './open-savepoint-list-handles';
import type { CheckpointMetadata, StreamHandle } from '../metadata/metadata-types';

const MAX_DELEGATE_DEPTH = 16;

export function listStateFileSizes(metadata: CheckpointMetadata): Map<string, number> {
  const sizes = new Map<string, number>();
  const note = (path: string, size: number) => {
    if (path === '') return;
    sizes.set(path, Math.max(sizes.get(path) ?? 0, Math.max(size, 0)));
  };
  const visit = (h: StreamHandle, depth: number): void => {
    switch (h.kind) {
      case 'relative-file':
        return note(h.relativePath, h.size);
      case 'file':
        return note(baseNameOf(h.path), h.size);
      case 'segment-file':
        return note(baseNameOf(h.physicalPath), h.start + h.size);
      case 'legacy-key-groups':
        if (h.delegate && depth < MAX_DELEGATE_DEPTH) visit(h.delegate, depth + 1);
        return;
      case 'inline':
      case 'empty-segment':
        return;
    }
  };
  for (const op of metadata.operators) for (const use of listOperatorStreamHandles(op)) visit(use.handle, 0);
  return sizes;
}
