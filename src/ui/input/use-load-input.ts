import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { splitInputFiles, toInspectorFailure, type InputFile, type InspectorInput } from '../../worker';
import { useInspector } from '../inspector-context';
import { useAppStore } from '../state/app-store';
import { clearSessionUrl, freshSessionChoices } from '../state/end-session';
import { describeStorageError, recordRecentSession } from '../state/recent-sessions';
import { findCompanion } from './companion';
import { mergeInputFiles } from './merge-input-files';

let generation = 0;

/**
 * Opens files in the worker, then records the session in IndexedDB. A schema alone joins the open savepoint
 * (and a savepoint joins a schema opened first); a savepoint while another is open starts a new session: the
 * last one's schema, target, settings and root choices go (end-session.ts), unless a schema comes with it.
 */
export function useLoadInput(): (added: InputFile[], opts?: { replace?: boolean; url?: string; metadataPath?: string }) => Promise<void> {
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
      // which `_metadata` of an input holding several: the one just picked, or the open savepoint's when only a schema is added
      const metadataPath = opts?.metadataPath ?? (!replace && splitInputFiles(added).savepointFiles.length === 0 ? store.metadataPath : null);
      store.set({ status: 'loading', failure: null, progress: null, pickFrom: null });
      const mine = ++generation;
      try {
        // a savepoint opened by URL stays open when only a schema is added
        const byUrl = url !== null && (opts?.url !== undefined || merged.savepointFiles.length === 0);
        const all = [...merged.savepointFiles, ...merged.schemaFiles];
        const companion = byUrl ? findCompanion() : undefined;
        const input: InspectorInput = byUrl
          ? { kind: 'url', url, schemaFiles: merged.schemaFiles, ...(companion === undefined ? {} : { companion }) }
          : { kind: 'files', files: all.length > 0 ? all : added, ...(metadataPath === null ? {} : { metadataPath }) };
        const session = await inspector.open(input, (progress) => useAppStore.getState().set({ progress }));
        if (mine !== generation) return; // a newer load replaced this one
        // results that failed before (e.g. cancelled) are computed again for the new input
        queryClient.removeQueries({ queryKey: ['session'], predicate: (q) => q.state.status === 'error' });
        if (newSession) clearSessionUrl();
        useAppStore.getState().set({
          ...merged,
          ...(newSession ? freshSessionChoices() : {}),
          savepointUrl: byUrl ? url : null,
          metadataPath: byUrl ? null : metadataPath,
          session,
          status: 'ready',
          progress: null,
        });
        // a schema alone is no session to reopen: it waits on the start page for its savepoint
        if (session.savepointName !== null)
          try {
            const { note } = await recordRecentSession(session, merged, useAppStore.getState().keepFiles && !byUrl, null, byUrl ? null : metadataPath);
            useAppStore.getState().set({ storageError: note });
          } catch (e) {
            useAppStore.getState().set({ storageError: describeStorageError(e) });
          }
        await queryClient.invalidateQueries({ queryKey: ['recent-sessions'] });
      } catch (e) {
        if (mine !== generation) return;
        const failure = toInspectorFailure(e);
        // several savepoints and none named: the user picks one (SavepointPicker), never one silently
        // (a savepoint by URL is one folder: only dropped files can hold several)
        const several = failure.kind === 'input' && failure.code === 'several-savepoints' && opts?.url === undefined;
        useAppStore.getState().set({ status: 'failed', failure, progress: null, pickFrom: several ? { added, replace: opts?.replace === true } : null });
      }
    },
    [inspector, queryClient],
  );
}
