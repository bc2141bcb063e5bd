import { useQueries, useQuery } from '@tanstack/react-query';
import type { EntryDetail, EntryPage, EntryRow, InspectorFailure } from '../../worker';
import { useInspector } from '../inspector-context';
import { useAppStore } from './app-store';

export const ENTRY_PAGE_SIZE = 500;

/** Rows of one state in pages; only the pages that cover `visible` are fetched from the worker. */
export function useEntryPages(operatorId: string, state: string, visible: { from: number; to: number }) {
  const inspector = useInspector();
  const hash = useAppStore((s) => s.session?.savepointHash);
  const sample = useAppStore((s) => s.sample);
  const key = (page: number) => ['session', hash, 'entries', operatorId, state, sample, page];
  const fetchPage = (page: number) => async () => {
    try {
      return await inspector.listEntries(
        { operatorId, state, offset: page * ENTRY_PAGE_SIZE, limit: ENTRY_PAGE_SIZE, ...(sample ? { sample } : {}) },
        (progress) => useAppStore.getState().set({ progress }),
      );
    } finally {
      useAppStore.getState().set({ progress: null });
    }
  };
  const first = useQuery<EntryPage, InspectorFailure>({ queryKey: key(0), queryFn: fetchPage(0), staleTime: Infinity, retry: false });
  const pages: number[] = [];
  for (let p = Math.floor(visible.from / ENTRY_PAGE_SIZE); p <= Math.floor(Math.max(visible.from, visible.to) / ENTRY_PAGE_SIZE); p++) if (p > 0) pages.push(p);
  const rest = useQueries({
    queries: pages.map((p) => ({ queryKey: key(p), queryFn: fetchPage(p), staleTime: Infinity, retry: false, enabled: first.isSuccess })),
  });
  const rowAt = (i: number): EntryRow | undefined => {
    const p = Math.floor(i / ENTRY_PAGE_SIZE);
    const page = p === 0 ? first.data : rest[pages.indexOf(p)]?.data;
    return page?.rows[i - p * ENTRY_PAGE_SIZE];
  };
  return { first, total: first.data?.total ?? 0, rowAt };
}

/** One entry's detail, cut at the view caps unless `whole` (the user asked for the whole value). */
export function useEntryDetail(operatorId: string, state: string, index: number | null, whole = false) {
  const inspector = useInspector();
  const hash = useAppStore((s) => s.session?.savepointHash);
  const sample = useAppStore((s) => s.sample);
  return useQuery<EntryDetail, InspectorFailure>({
    queryKey: ['session', hash, 'entry', operatorId, state, sample, index, whole],
    enabled: index !== null,
    staleTime: Infinity,
    retry: false,
    queryFn: () => inspector.getEntryDetail({ operatorId, state, index: index!, ...(sample ? { sample } : {}), ...(whole ? { whole } : {}) }),
  });
}
