/**
 * The value half of `check`, per state: read the state's saved values with the structural scan
 * (the full decoder only where the scan cannot mirror it exactly) and count them into the value
 * warnings as they are read, keeping nothing per value. `subtasks` limits the read to some
 * subtasks (a worker thread's share); the tallies of all subtasks, merged in subtask order
 * (mergeStateValueTallies), equal the tally of one whole read.
 */
import { createValueWarningCollector, registerValueScanningReaders, scanProtobufStateValues, type UnkeyedScannedValue } from '../compat';
import { createSnapshotRegistry, openSavepoint, type CancelSignal } from '../flink';
import { isDecodeError, type SavepointFiles } from '../io';
import type { EvaluatedProtobufState, EvaluatedSavepoint, StateValueTally } from './check-savepoint-types';

export interface StateValueScanner {
  /** The tally of one state, or undefined when its values are not readable (e.g. RocksDB native); a cancelled scan rejects. */
  scan(state: EvaluatedProtobufState, subtasks?: readonly number[]): Promise<StateValueTally | undefined>;
}

export async function createStateValueScanner(files: SavepointFiles, evaluated: EvaluatedSavepoint, signal?: CancelSignal): Promise<StateValueScanner> {
  const pending: UnkeyedScannedValue[] = [];
  const registry = createSnapshotRegistry();
  registerValueScanningReaders(registry, (v) => pending.push(v));
  const opened = await openSavepoint(files);
  return {
    async scan(state, subtasks) {
      if (!state.compatibility.schema) return undefined;
      try {
        // values are counted into the warnings as they are read, never kept: memory stays bounded by the warnings' example keys
        const collector = createValueWarningCollector(state.compatibility.schema, evaluated.newSettings);
        const scan = await scanProtobufStateValues(files, registry, pending, {
          operatorId: state.found.operator.id,
          state: state.found.state.name,
          opened,
          onValue: collector.add,
          ...(subtasks ? { subtasks } : {}),
          ...(signal ? { signal } : {}),
        });
        return { tally: collector.tally(), valuesScanned: scan.scannedValues };
      } catch (e) {
        // a cancelled scan is not "values not readable": a report without its warnings must never look complete
        if (!isDecodeError(e) || e.code === 'cancelled') throw e;
        // values not readable (e.g. RocksDB native): the report says they were not scanned
        return undefined;
      }
    },
  };
}
