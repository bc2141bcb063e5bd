/**
 * How much of the savepoint the Query view loads into DuckDB-WASM. DuckDB holds a loaded table in its
 * WebAssembly memory at about 1.1× the export's Arrow bytes, which are about the state files' bytes
 * (figure 10d: 1 GiB of state, 1.66 GiB peak for all of Chromium), and WebAssembly memory ends at
 * 4 GiB, in the same renderer process as the page. So up to QUERY_LOAD_LIMIT_BYTES of state is loaded
 * whole; above it every n-th key group, with n the smallest that brings the keyed state under the
 * limit (operator state is always read whole). The tables then say they are a sample, and the view
 * says why and how to query the whole state (the CLI's export, then DuckDB).
 */
import type { StateSample } from '../../core/flink';

export const QUERY_LOAD_LIMIT_BYTES = 2 * 1024 ** 3;

export function chooseLoadSample(stateBytes: number, limit = QUERY_LOAD_LIMIT_BYTES): StateSample | undefined {
  if (stateBytes <= limit) return undefined;
  return { kind: 'key-groups', every: Math.ceil(stateBytes / limit) };
}
