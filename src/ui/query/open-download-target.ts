/**
 * Where an exported file goes while the worker streams it, chunk by chunk:
 * - `file`: Chromium's File System Access API (`showSaveFilePicker` → `createWritable`): each chunk is
 *   written to the chosen file as it arrives (the write is awaited, so the worker's export waits for the
 *   disk: back pressure), and the page never holds more than a chunk. `abort` discards the file.
 * - `blob`: browsers without the picker (Firefox, Safari): the chunks are kept as Blob parts and saved
 *   as one download at the end, so the page holds the whole file; it is bounded by FALLBACK_MAX_BYTES
 *   (past that the export stops with a message pointing to Chromium or the CLI).
 * The picker must be asked within the click (a user gesture), before anything is awaited.
 */
import { downloadBlob } from '../download-blob';

/** The most the Blob fallback keeps in the page before it gives up (the whole file is in memory there). */
export const FALLBACK_MAX_BYTES = 1024 * 1024 * 1024;

export interface DownloadTarget {
  kind: 'file' | 'blob';
  write(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
  abort(): Promise<void>;
}

interface SaveFilePickerWindow {
  showSaveFilePicker?: (options: { suggestedName: string; types?: { description: string; accept: Record<string, string[]> }[] }) => Promise<{
    createWritable(): Promise<{ write(data: Uint8Array): Promise<void>; close(): Promise<void>; abort(): Promise<void> }>;
  }>;
}

/** Asks where to save (the picker, when the browser has it); null when the user dismissed the picker. */
export async function openDownloadTarget(fileName: string, type: string): Promise<DownloadTarget | null> {
  const picker = (window as unknown as SaveFilePickerWindow).showSaveFilePicker;
  if (typeof picker === 'function') {
    let handle;
    try {
      const extension = fileName.slice(fileName.lastIndexOf('.'));
      handle = await picker.call(window, { suggestedName: fileName, types: [{ description: extension.slice(1), accept: { [type]: [extension] } }] });
    } catch (e) {
      if (e instanceof DOMException && e.name === 'AbortError') return null;
      throw e;
    }
    const writable = await handle.createWritable();
    return {
      kind: 'file',
      write: (chunk) => writable.write(chunk),
      close: () => writable.close(),
      abort: () => writable.abort(),
    };
  }
  const parts: Uint8Array[] = [];
  let bytes = 0;
  return {
    kind: 'blob',
    write: (chunk) => {
      bytes += chunk.length;
      if (bytes > FALLBACK_MAX_BYTES) {
        parts.length = 0;
        return Promise.reject(
          new Error(
            `this browser cannot stream a download to disk (no File System Access API), so the page would hold the whole file: stopped past ${FALLBACK_MAX_BYTES / 1024 / 1024} MiB — export this state in Chromium, Edge or with the CLI (savepoint-inspector export)`,
          ),
        );
      }
      parts.push(chunk);
      return Promise.resolve();
    },
    close: () => {
      downloadBlob(new Blob(parts as BlobPart[], { type }), fileName);
      parts.length = 0;
      return Promise.resolve();
    },
    abort: () => {
      parts.length = 0;
      return Promise.resolve();
    },
  };
}
