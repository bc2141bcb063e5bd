/// <reference lib="webworker" />
/**
 * Worker entry: one LocalInspector exposed through Comlink. Every failure is turned into plain
 * InspectorFailure data before it crosses, because Comlink would keep only the message of an Error.
 */
import { expose, transfer } from 'comlink';
import { initSnappyWasm } from '../core/flink';
import type { Inspector } from './inspector';
import { LocalInspector } from './local-inspector';
import { toInspectorFailure } from './to-inspector-failure';

const local = new LocalInspector();
// RocksDB's Snappy blocks are decompressed by WebAssembly once its module (an asset of the build) is
// instantiated, in the background; until then, or if it cannot be (a host whose policy forbids compiling
// WebAssembly), by snappyjs: the same bytes, slower.
void initSnappyWasm().catch(() => undefined);

function guard<A extends unknown[], R>(fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A) => {
    try {
      return await fn(...args);
    } catch (e) {
      throw toInspectorFailure(e);
    }
  };
}

const exposed: Inspector = {
  open: guard((input, onProgress) => local.open(input, onProgress)),
  getInspection: guard((onProgress) => local.getInspection(onProgress)),
  getSnapshotFindings: guard((onProgress) => local.getSnapshotFindings(onProgress)),
  getSourcesAndSinks: guard((onProgress) => local.getSourcesAndSinks(onProgress)),
  getSizeBreakdown: guard((onProgress) => local.getSizeBreakdown(onProgress)),
  computeOperatorId: guard((uid) => local.computeOperatorId(uid)),
  listEntries: guard((query, onProgress) => local.listEntries(query, onProgress)),
  getEntryDetail: guard((query) => local.getEntryDetail(query)),
  getStateStats: guard((query, onProgress) => local.getStateStats(query, onProgress)),
  // each chunk is the export's own copy: moved to the page, not copied
  exportState: guard((query, onChunk, onProgress) => local.exportState(query, (chunk) => onChunk(transfer(chunk, [chunk.buffer])), onProgress)),
  exportStates: guard((query, onChunk, onProgress) => local.exportStates(query, (index, chunk) => onChunk(index, transfer(chunk, [chunk.buffer])), onProgress)),
  checkHeaders: guard((options, onProgress) => local.checkHeaders(options, onProgress)),
  check: guard((options, onProgress) => local.check(options, onProgress)),
  formatReport: guard((options, format) => local.formatReport(options, format)),
  getSavedSchema: guard((sha256) => local.getSavedSchema(sha256)),
  listNewSchemaMessages: guard(() => local.listNewSchemaMessages()),
  compareWith: guard((input, options, onProgress) => local.compareWith(input, options, onProgress)),
  cancel: guard(() => local.cancel()),
};

expose(exposed);
