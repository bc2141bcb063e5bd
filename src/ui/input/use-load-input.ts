import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { toInspectorFailure, type InputFile, type InspectorInput } from '../../worker';
import { useInspector } from '../inspector-context';
import { useAppStore } from '../state/app-store';
import { describeStorageError, recordRecentSession } from '../state/recent-sessions';
import { mergeInputFiles } from './merge-input-files';

let generation = 0;

/** Opens files in the worker (merged with what is open), then records the session in IndexedDB. */
export function useLoadInput(): (added: InputFile[], opts?: { replace?: boolean; url?: string }) => Promise<void> {
  const inspector = useInspector();
  const queryClient = useQueryClient();
  return useCallback(
    async (added, opts) => {
      const store = useAppStore.getState();
      const url = opts?.url ?? (opts?.replace ? null : store.savepointUrl);
      const merged = opts?.replace
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
        useAppStore.getState().set({ ...merged, savepointUrl: byUrl ? url : null, session, status: 'ready', progress: null });
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
