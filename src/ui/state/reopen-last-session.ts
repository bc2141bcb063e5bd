import type { InputFile } from '../../worker';
import { describeStorageError, listRecentSessions, loadRecentFiles } from './recent-sessions';

/** Reopens the most recent session whose files were kept (the user opted in), e.g. after a reload. */
export async function reopenLastSession(open: (files: InputFile[], replace?: boolean) => void, onStorageError: (message: string) => void): Promise<void> {
  try {
    const last = (await listRecentSessions()).find((s) => s.filesKept);
    if (!last) return;
    const files = await loadRecentFiles(last.inputHash);
    if (files) open([...files.savepointFiles, ...files.schemaFiles], true);
  } catch (e) {
    onStorageError(describeStorageError(e));
  }
}
