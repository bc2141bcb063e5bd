/**
 * Recent sessions in IndexedDB (idb): what was opened (names, sizes, hashes, verdict, time) and,
 * only when the user opted in and within FILE_STORE_CAP_BYTES, the files themselves so a reload
 * can reopen them. Storage failures (quota, private mode) are thrown to the caller, which shows them.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { LibraryLine } from '../../core/compat';
import type { InputFile, OpenedSession } from '../../worker';

export const MAX_RECENT_SESSIONS = 10;
export const FILE_STORE_CAP_BYTES = 200 * 1024 * 1024;

export interface RecentSession {
  inputHash: string;
  savepointName: string | null;
  descriptorSetName: string | null;
  /** `_metadata` and descriptor sets carry their SHA-256; state files are identified by path and size */
  files: { path: string; size: number; sha256?: string }[];
  /** bytes of every file given (savepoint files or archive, and descriptor sets) */
  totalSize: number;
  /** the savepoint's size as the top bar and the Overview show it (`_metadata` + referenced state files), once inspected */
  savepointSize?: number;
  /** overall verdict when one was computed */
  verdict: string | null;
  /** the `_metadata` picked in an input holding several savepoints; Reopen opens it again without asking */
  metadataPath?: string;
  /** the flink-datastream-protobuf line the verdict was computed for; Reopen chooses it again (Close took it from the URL) */
  target?: LibraryLine;
  openedAt: number;
  filesKept: boolean;
}

interface StoredFiles {
  inputHash: string;
  savepointFiles: { path: string; blob: Blob }[];
  schemaFiles: { path: string; blob: Blob }[];
}

interface RecentDb extends DBSchema {
  sessions: { key: string; value: RecentSession; indexes: { openedAt: number } };
  files: { key: string; value: StoredFiles };
}

let dbPromise: Promise<IDBPDatabase<RecentDb>> | null = null;

function openRecentDb(): Promise<IDBPDatabase<RecentDb>> {
  dbPromise ??= openDB<RecentDb>('savepoint-inspector', 1, {
    upgrade(db) {
      const sessions = db.createObjectStore('sessions', { keyPath: 'inputHash' });
      sessions.createIndex('openedAt', 'openedAt');
      db.createObjectStore('files', { keyPath: 'inputHash' });
    },
  });
  return dbPromise;
}

/**
 * Writes run one after another: a row is read and written back whole, so two writes of one row must not
 * interleave (the size or verdict of a session would be lost, or an older row written back).
 */
let writes: Promise<unknown> = Promise.resolve();
function serially<T>(write: () => Promise<T>): Promise<T> {
  const run = writes.then(write, write);
  writes = run.catch(() => undefined);
  return run;
}

/**
 * The savepoint size of each input as the top bar measured it. The inspection can finish before the session's
 * row is written: the row then takes the size from here, so one savepoint never shows the size of the files
 * given in one row and its measured size in another.
 */
const measuredSizes = new Map<string, number>();

export async function listRecentSessions(): Promise<RecentSession[]> {
  const db = await openRecentDb();
  const all = await db.getAllFromIndex('sessions', 'openedAt');
  return all.reverse();
}

/** Records a session; keeps files only when asked and under the cap. Returns why files were not kept. */
export async function recordRecentSession(
  session: OpenedSession,
  files: { savepointFiles: InputFile[]; schemaFiles: InputFile[] },
  keepFiles: boolean,
  verdict: string | null,
  metadataPath: string | null = null,
): Promise<{ filesKept: boolean; note: string | null }> {
  return serially(() => writeRecentSession(session, files, keepFiles, verdict, metadataPath));
}

async function writeRecentSession(
  session: OpenedSession,
  files: { savepointFiles: InputFile[]; schemaFiles: InputFile[] },
  keepFiles: boolean,
  verdict: string | null,
  metadataPath: string | null,
): Promise<{ filesKept: boolean; note: string | null }> {
  const db = await openRecentDb();
  const totalSize = session.digests.reduce((n, d) => n + d.size, 0);
  const earlier = await db.get('sessions', session.inputHash);
  // files kept for this very input earlier stay kept (same hash, same bytes)
  let filesKept = earlier?.filesKept === true && !keepFiles && (await db.count('files', session.inputHash)) > 0;
  let note: string | null = null;
  if (keepFiles) {
    if (totalSize > FILE_STORE_CAP_BYTES) {
      note = `files not kept: ${totalSize} bytes is over the ${FILE_STORE_CAP_BYTES}-byte cap for stored sessions`;
    } else {
      await db.put('files', {
        inputHash: session.inputHash,
        savepointFiles: files.savepointFiles.map((f) => ({ path: f.path, blob: f.blob })),
        schemaFiles: files.schemaFiles.map((f) => ({ path: f.path, blob: f.blob })),
      });
      // large writes can fail without an error: read back before claiming the files are kept
      const back = await db.get('files', session.inputHash);
      filesKept = back !== undefined && back.savepointFiles.length === files.savepointFiles.length;
      if (!filesKept) note = 'files not kept: the browser did not store them (storage full?)';
    }
  }
  await db.put('sessions', {
    inputHash: session.inputHash,
    savepointName: session.savepointName,
    descriptorSetName: session.descriptorSetName,
    files: session.digests.map((d) => ({ path: d.path, size: d.size, ...(d.sha256 === undefined ? {} : { sha256: d.sha256 }) })),
    totalSize,
    ...savepointSizeOf(session.inputHash, earlier),
    ...(metadataPath === null ? {} : { metadataPath }),
    verdict,
    openedAt: Date.now(),
    filesKept,
  });
  await pruneRecentSessions(db);
  return { filesKept, note };
}

/** The size measured for this input (now or when it was opened before: same hash, same bytes), if any. */
function savepointSizeOf(inputHash: string, earlier: RecentSession | undefined): { savepointSize?: number } {
  const size = measuredSizes.get(inputHash) ?? earlier?.savepointSize;
  return size === undefined ? {} : { savepointSize: size };
}

export async function setRecentVerdict(inputHash: string, verdict: string, target?: LibraryLine): Promise<void> {
  await serially(async () => {
    const db = await openRecentDb();
    const s = await db.get('sessions', inputHash);
    if (s) await db.put('sessions', { ...s, verdict, ...(target === undefined ? {} : { target }) });
  });
}

export async function setRecentSavepointSize(inputHash: string, savepointSize: number): Promise<void> {
  measuredSizes.set(inputHash, savepointSize);
  await serially(async () => {
    const db = await openRecentDb();
    const s = await db.get('sessions', inputHash);
    if (s && s.savepointSize !== savepointSize) await db.put('sessions', { ...s, savepointSize });
  });
}

export async function loadRecentFiles(inputHash: string): Promise<{ savepointFiles: InputFile[]; schemaFiles: InputFile[] } | null> {
  const db = await openRecentDb();
  const stored = await db.get('files', inputHash);
  return stored ? { savepointFiles: stored.savepointFiles, schemaFiles: stored.schemaFiles } : null;
}

export async function forgetRecentSession(inputHash: string): Promise<void> {
  await serially(async () => {
    const db = await openRecentDb();
    await db.delete('sessions', inputHash);
    await db.delete('files', inputHash);
  });
}

async function pruneRecentSessions(db: IDBPDatabase<RecentDb>): Promise<void> {
  const all = await db.getAllFromIndex('sessions', 'openedAt');
  for (const old of all.slice(0, Math.max(0, all.length - MAX_RECENT_SESSIONS))) {
    await db.delete('sessions', old.inputHash);
    await db.delete('files', old.inputHash);
  }
}

/** Text for a storage failure, e.g. QuotaExceededError. */
export function describeStorageError(e: unknown): string {
  if (e instanceof DOMException) return `Browser storage failed (${e.name}): ${e.message}`;
  if (e instanceof Error) return `Browser storage failed: ${e.message}`;
  return `Browser storage failed: ${String(e)}`;
}
