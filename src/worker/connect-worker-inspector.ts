/**
 * The UI's Inspector: a Comlink proxy to the Web Worker. Progress listeners are passed as Comlink
 * proxies; failures arrive as InspectorFailure data.
 */
import { proxy, releaseProxy, wrap, type Remote } from 'comlink';
import type { Inspector, InspectorFailure, ProgressListener } from './inspector';
import { toInspectorFailure } from './to-inspector-failure';
import inspectorWorkerUrl from './inspector.worker.ts?worker&url';

export interface WorkerInspector {
  inspector: Inspector;
  terminate(): void;
}

export function connectWorkerInspector(): WorkerInspector {
  // The worker's Content-Security-Policy comes from its own response: the page's ?savepoint=<url>
  // is passed on so that the server allows that origin for the worker's range requests too.
  const url = new URL(inspectorWorkerUrl, window.location.href);
  const savepoint = new URLSearchParams(window.location.search).get('savepoint');
  if (savepoint !== null) url.searchParams.set('savepoint', savepoint);
  const worker = new Worker(url, { type: 'module', name: 'inspector' });
  const remote: Remote<Inspector> = wrap<Inspector>(worker);
  const listen = (l?: ProgressListener) => (l ? proxy(l) : undefined);
  // a worker that fails to load or crashes would leave every call pending: fail them instead
  const crashed = new Promise<never>((_, reject) => {
    worker.addEventListener('error', (e) => {
      reject({
        kind: 'internal',
        name: 'WorkerError',
        message: `the decoding worker stopped: ${e.message || 'it could not be loaded'}`,
      } satisfies InspectorFailure);
    });
  });
  crashed.catch(() => undefined);
  const call = async <T>(p: Promise<T>): Promise<T> => {
    try {
      return await Promise.race([p, crashed]);
    } catch (e) {
      throw toInspectorFailure(e);
    }
  };
  const inspector: Inspector = {
    open: (input, onProgress) => call(remote.open(input, listen(onProgress))),
    getInspection: (onProgress) => call(remote.getInspection(listen(onProgress))),
    getSnapshotFindings: (onProgress) => call(remote.getSnapshotFindings(listen(onProgress))),
    getSourcesAndSinks: (onProgress) => call(remote.getSourcesAndSinks(listen(onProgress))),
    getSizeBreakdown: (onProgress) => call(remote.getSizeBreakdown(listen(onProgress))),
    computeOperatorId: (uid) => call(remote.computeOperatorId(uid)),
    listEntries: (query, onProgress) => call(remote.listEntries(query, listen(onProgress))),
    getEntryDetail: (query) => call(remote.getEntryDetail(query)),
    getStateStats: (query, onProgress) => call(remote.getStateStats(query, listen(onProgress))),
    exportState: (query, onChunk, onProgress) => call(remote.exportState(query, proxy(onChunk), listen(onProgress))),
    exportStates: (query, onChunk, onProgress) => call(remote.exportStates(query, proxy(onChunk), listen(onProgress))),
    checkHeaders: (options, onProgress) => call(remote.checkHeaders(options, listen(onProgress))),
    check: (options, onProgress) => call(remote.check(options, listen(onProgress))),
    formatReport: (options, format) => call(remote.formatReport(options, format)),
    getSavedSchema: (sha256) => call(remote.getSavedSchema(sha256)),
    listNewSchemaMessages: () => call(remote.listNewSchemaMessages()),
    compareWith: (input, options, onProgress) => call(remote.compareWith(input, options, listen(onProgress))),
    cancel: () => call(remote.cancel()),
  };
  return {
    inspector,
    terminate() {
      remote[releaseProxy]();
      worker.terminate();
    },
  };
}
