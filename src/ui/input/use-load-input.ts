import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { splitInputFiles, toInspectorFailure, type InputFile, type InspectorInput } from '../../worker';
import { useInspector } from '../inspector-context';
import { useAppStore } from '../state/app-store';
import { clearSessionUrl, freshSessionChoices } from '../state/end-session';
import { describeStorageError, recordRecentSession } from '../state/recent-sessions';
import { mergeInputFiles } from './merge-input-files';

let generation = 0;

/**
 * Opens files in the worker, then records the session in IndexedDB. A schema alone joins the open savepoint
 * (and a savepoint joins a schema opened first); a savepoint while another is open starts a new session: the
 * last one's schema, target, settings and root choices go (end-session.ts), unless a schema comes with it.
 */
export function useLoadInput(): (added: InputFile[], opts?: { replace?: boolean; url?: string }) => Promise<void> {
  const inspector = useInspector();
  const queryClient = useQueryClient();
  return useCallback(
    async (added, opts) => {
      const store = useAppStore.getState();
      const newSession = store.session?.savepointName != null && (opts?.url !== undefined || splitInputFiles(added).savepointFiles.length > 0);
      const replace = opts?.replace === true || newSession;
      const url = opts?.url ?? (replace ? null : store.savepointUrl);
      const merged = replace
        ? mergeInputFiles({ savepointFiles: [], schemaFiles: [] }, added)
        : mergeInputFiles({ savepointFiles: store.savepointFiles, schemaFiles: store.schemaFiles }, added);
      store.set({ status: 'loading', failure: null, progress: null });
      const mine = ++generation;
      try {
        // a savepoint opened by URL stays open when only a schema is added
        const byUrl = url !== null && (opts?.url !== undefined || merged.savepointFiles.length === 0);
        const all = [...merged.savepointFiles, ...merged.schemaFiles];
        const input: InspectorInput = byUrl
          ? { kind: 'url', url, schemaFiles: merged.schemaFiles }
          : { kind: 'files', files: all.length > 0 ? all : added };
        const session = await inspector.open(input, (progress) => useAppStore.getState().set({ progress }));
        if (mine !== generation) return; // a newer load replaced this one
        // results that failed before (e.g. cancelled) are computed again for the new input
        queryClient.removeQueries({ queryKey: ['session'], predicate: (q) => q.state.status === 'error' });
        if (newSession) clearSessionUrl();
        useAppStore.getState().set({ ...merged, ...(newSession ? freshSessionChoices() : {}), savepointUrl: byUrl ? url : null, session, status: 'ready', progress: null });
        // a schema alone is no session to reopen: it waits on the start page for its savepoint
        if (session.savepointName !== null) try {
          const { note } = await recordRecentSession(session, merged, useAppStore.getState().keepFiles && !byUrl, null);
          useAppStore.getState().set({ storageError: note });
        } catch (e) {
          useAppStore.getState().set({ storageError: describeStorageError(e) });
        }
        await queryClient.invalidateQueries({ queryKey: ['recent-sessions'] });
      } catch (e) {
        if (mine !== generation) return;
        useAppStore.getState().set({ status: 'failed', failure: toInspectorFailure(e), progress: null });
      }
    },
    [inspector, queryClient],
  );
}
