import { useQuery } from '@tanstack/react-query';
import type { LibraryLine } from '../../core/compat';
import type { InspectorFailure, ViewedReport } from '../../worker';
import { useInspector } from '../inspector-context';
import { useAppStore } from './app-store';
import { AUTO_SCAN_BYTES, measureSavepointBytes } from './scan-thresholds';

export interface CheckResult {
  /**
   * false until the user said which library line the new job runs: no verdict before (choose-target-line.ts);
   * true without asking when both lines give the same verdict (then `targetNotAsked`)
   */
  targetChosen: boolean;
  /** the question was not asked: the header checks of 0.x and 1.x give the same verdict, so the answer cannot change it */
  targetNotAsked: boolean;
  /** the report with the value scan once it is there, else the header-only one */
  data: ViewedReport | undefined;
  isError: boolean;
  /** the header-only check's failure (meaningful when isError) */
  error: InspectorFailure;
  refetch(): void;
  /** the value scan of the check: done (`data` holds its warnings), running, or waiting to be asked for */
  values: { status: 'done' | 'running' | 'not-requested' | 'failed'; savepointBytes: number; request(): void };
}

/**
 * The compatibility report for the open input and the chosen target/settings, in two steps: the
 * header-only verdict at once (`_metadata` and state headers), then the value warnings from the
 * value scan — at once for a savepoint up to AUTO_SCAN_BYTES, else when the user asks for it.
 * The exported report is always the one with values (what the CLI's `check` writes).
 */
export function useCheck(): CheckResult {
  const inspector = useInspector();
  const session = useAppStore((s) => s.session);
  const options = useAppStore((s) => s.checkOptions);
  const chosen = useAppStore((s) => s.targetChosen);
  const targetNotAsked = useTargetMoot(!chosen);
  const targetChosen = chosen || targetNotAsked;
  const requested = useAppStore((s) => s.valueCheckFor !== null && s.valueCheckFor === s.session?.inputHash);
  const ready = targetChosen && session !== null && session.savepointName !== null && session.descriptorSetName !== null;
  const savepointBytes = measureSavepointBytes(session);
  const withValues = ready && (savepointBytes <= AUTO_SCAN_BYTES || requested);
  const progress = (p: Parameters<NonNullable<Parameters<typeof inspector.check>[1]>>[0]) => useAppStore.getState().set({ progress: p });
  const headers = useQuery<ViewedReport, InspectorFailure>({
    queryKey: ['session', session?.inputHash, 'check-headers', options],
    enabled: ready,
    staleTime: Infinity,
    retry: false,
    queryFn: () => clearingProgress(inspector.checkHeaders(options, progress)),
  });
  const values = useQuery<ViewedReport, InspectorFailure>({
    queryKey: ['session', session?.inputHash, 'check', options],
    enabled: withValues,
    staleTime: Infinity,
    retry: false,
    queryFn: () => clearingProgress(inspector.check(options, progress)),
  });
  const status = values.data ? 'done' : values.isError ? 'failed' : values.isFetching ? 'running' : 'not-requested';
  return {
    targetChosen,
    targetNotAsked,
    // the preview of each target line shares the header query: nothing shows before the user chose
    data: targetChosen ? (values.data ?? headers.data) : undefined,
    isError: headers.isError,
    error: headers.error as InspectorFailure,
    refetch: () => void headers.refetch(),
    values: {
      status,
      savepointBytes,
      request: () => {
        const hash = useAppStore.getState().session?.inputHash ?? null;
        useAppStore.getState().set({ valueCheckFor: hash });
        if (values.isError) void values.refetch();
      },
    },
  };
}

/**
 * The header-only verdict for one target line, the question's preview of each answer: the same query
 * as useCheck's first step, so choosing that line reuses it.
 */
export function useHeaderCheck(target: LibraryLine, enabled = true): { data: ViewedReport | undefined; isError: boolean; error: InspectorFailure | null } {
  const inspector = useInspector();
  const session = useAppStore((s) => s.session);
  const options = { ...useAppStore((s) => s.checkOptions), target };
  const ready = enabled && session !== null && session.savepointName !== null && session.descriptorSetName !== null;
  const headers = useQuery<ViewedReport, InspectorFailure>({
    queryKey: ['session', session?.inputHash, 'check-headers', options],
    enabled: ready,
    staleTime: Infinity,
    retry: false,
    queryFn: () => clearingProgress(inspector.checkHeaders(options)),
  });
  return { data: headers.data, isError: headers.isError, error: headers.error };
}

/**
 * Whether the question of the library line is moot (asked only while `unanswered`): the header checks
 * of both lines (the question's own previews, so no extra work) came back with the same verdict — a
 * Kryo-held state, a savepoint without Protobuf state — so the answer cannot change it and the verdict
 * shows at once (for the default line, 1.x), never blocked on a click that decides nothing.
 */
function useTargetMoot(unanswered: boolean): boolean {
  const zero = useHeaderCheck('0.x', unanswered);
  const one = useHeaderCheck('1.x', unanswered);
  return unanswered && zero.data !== undefined && one.data !== undefined && zero.data.verdict === one.data.verdict;
}

/** The check's result; the progress bar goes away when it settles, whatever the outcome. */
async function clearingProgress<T>(run: Promise<T>): Promise<T> {
  try {
    return await run;
  } finally {
    useAppStore.getState().set({ progress: null });
  }
}
