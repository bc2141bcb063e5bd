import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { StateSample } from '../../core/flink';
import { readTargetLine } from './read-target-line';
import type { CheckOptions, InputFile, InspectorFailure, InspectorProgress, OpenedSession } from '../../worker';

export type LoadStatus = 'empty' | 'loading' | 'ready' | 'failed';

export interface AppState {
  /** savepoint parts of the current input (folder files or one archive) */
  savepointFiles: InputFile[];
  /** the new schema */
  schemaFiles: InputFile[];
  /** the savepoint URL when it was opened with ?savepoint=<url> */
  savepointUrl: string | null;
  session: OpenedSession | null;
  /** the `_metadata` the user picked in an input holding several savepoints (null: the input holds one) */
  metadataPath: string | null;
  /** an input refused because it holds several savepoints: the files to open again with the one the user picks */
  pickFrom: { added: InputFile[]; replace: boolean } | null;
  status: LoadStatus;
  progress: InspectorProgress | null;
  failure: InspectorFailure | null;
  /** operators table filter */
  operatorFilter: string;
  diffChangesOnly: boolean;
  /** target library line and new settings of the compatibility check */
  checkOptions: CheckOptions;
  /** whether the user said which library line the new job runs (the URL's `target`): no check runs before */
  targetChosen: boolean;
  /** how the state statistics and the values table read a state: whole (null) or a sample */
  sample: StateSample | null;
  /** input hash for which the user asked for the value scan of the compatibility check (large savepoints) */
  valueCheckFor: string | null;
  /** opt-in: keep the input files in IndexedDB so a reload can reopen them */
  keepFiles: boolean;
  /** storage errors (quota) are shown, never swallowed */
  storageError: string | null;
  set(patch: Partial<AppState>): void;
}

const initialTarget = typeof window === 'undefined' ? null : readTargetLine(window.location.search);

/** UI state; only the user's storage opt-in survives a reload (localStorage), the rest is per page. */
export const useAppStore = create<AppState>()(
  persist(
    (set) => ({
      savepointFiles: [],
      schemaFiles: [],
      savepointUrl: null,
      session: null,
      metadataPath: null,
      pickFrom: null,
      status: 'empty',
      progress: null,
      failure: null,
      operatorFilter: '',
      diffChangesOnly: true,
      // the target line comes from the URL when it names one; otherwise the app asks (choose-target-line.ts)
      checkOptions: { target: initialTarget ?? '1.x', newSettings: {} },
      targetChosen: initialTarget !== null,
      sample: null,
      valueCheckFor: null,
      keepFiles: false,
      storageError: null,
      set: (patch) => set(patch),
    }),
    {
      name: 'savepoint-inspector:ui',
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => ({ keepFiles: s.keepFiles }),
    },
  ),
);
