/**
 * The value half of `check`, per state: read the state's saved values with the structural scan
 * (the full decoder only where the scan cannot mirror it exactly) and count them into the value
 * warnings as they are read, keeping nothing per value. `subtasks` limits the read to some
 * subtasks (a worker thread's share); the tallies of all subtasks, merged in subtask order
 * (mergeStateValueTallies), equal the tally of one whole read. scanOperator reads the states of one
 * operator in one pass over its streams (a read of one state frames every state's entries anyway).
 */
import { createValueWarningCollector, identifyProtobufSchema, registerValueScanningReaders, scanProtobufStateValues, type UnkeyedScannedValue } from '../compat';
import { createSnapshotRegistry, openSavepoint, type CancelSignal } from '../flink';
import { isDecodeError, type SavepointFiles } from '../io';
import type { EvaluatedProtobufState, EvaluatedSavepoint, StateValueTally } from './check-savepoint-types';

export interface StateValueScanner {
  /** The tally of one state, or undefined when its values are not readable (e.g. RocksDB native); a cancelled scan rejects. */
  scan(state: EvaluatedProtobufState, subtasks?: readonly number[]): Promise<StateValueTally | undefined>;
  /**
   * The tallies of several states of one operator, in order: each exactly what scan(state) gives. One
   * pass reads them all; should it fail, each state is scanned alone, so a state whose own values
   * are readable is never lost to another state's unreadable ones.
   */
  scanOperator(states: readonly EvaluatedProtobufState[], subtasks?: readonly number[]): Promise<(StateValueTally | undefined)[]>;
}

export async function createStateValueScanner(files: SavepointFiles, evaluated: EvaluatedSavepoint, signal?: CancelSignal): Promise<StateValueScanner> {
  const pending: UnkeyedScannedValue[] = [];
  const registry = createSnapshotRegistry();
  registerValueScanningReaders(registry, (v) => pending.push(v));
  const opened = await openSavepoint(files);
  const scanner: StateValueScanner = {
    async scan(state, subtasks) {
      if (!state.compatibility.schema) return undefined;
      try {
        // values are counted into the warnings as they are read, never kept: memory stays bounded by the warnings' example keys
        const collector = createValueWarningCollector(state.compatibility.schema, evaluated.newSettings);
        const own = identifyProtobufSchema(state.found.content);
        let values = 0;
        await scanProtobufStateValues(files, registry, pending, {
          operatorId: state.found.operator.id,
          state: state.found.state.name,
          opened,
          onValue: (value, _state, schema) => {
            // a value of the state's other Protobuf type (a Protobuf key next to a Protobuf value) is not this serializer's
            if (schema !== undefined && schema !== own) return;
            collector.add(value);
            values++;
          },
          ...(subtasks ? { subtasks } : {}),
          ...(signal ? { signal } : {}),
        });
        return { tally: collector.tally(), valuesScanned: values };
      } catch (e) {
        // a cancelled scan is not "values not readable": a report without its warnings must never look complete
        if (!isDecodeError(e) || e.code === 'cancelled') throw e;
        // values not readable (e.g. RocksDB native): the report says they were not scanned
        return undefined;
      }
    },
    async scanOperator(states, subtasks) {
      if (states.length === 1) return [await scanner.scan(states[0]!, subtasks)];
      const operatorId = states[0]!.found.operator.id;
      if (states.some((s) => s.found.operator.id !== operatorId)) throw new Error('scanOperator: states of different operators');
      // a state may hold several Protobuf types (key and value serializers): each gets the values read with its type, as scan() gives it
      const slots = states.map((s) => (s.compatibility.schema ? { collector: createValueWarningCollector(s.compatibility.schema, evaluated.newSettings), values: 0, schema: identifyProtobufSchema(s.found.content) } : undefined));
      const byState = new Map<string, NonNullable<(typeof slots)[number]>[]>();
      states.forEach((s, i) => {
        const slot = slots[i];
        if (slot === undefined) return;
        const list = byState.get(s.found.state.name) ?? [];
        list.push(slot);
        byState.set(s.found.state.name, list);
      });
      if (byState.size === 0) return states.map(() => undefined);
      try {
        await scanProtobufStateValues(files, registry, pending, {
          operatorId,
          state: [...byState.keys()],
          opened,
          onValue: (value, name, schema) => {
            for (const slot of byState.get(name) ?? []) {
              if (schema !== undefined && schema !== slot.schema) continue;
              slot.collector.add(value);
              slot.values++;
            }
          },
          ...(subtasks ? { subtasks } : {}),
          ...(signal ? { signal } : {}),
        });
      } catch (e) {
        if (!isDecodeError(e) || e.code === 'cancelled') throw e;
        const out: (StateValueTally | undefined)[] = [];
        for (const s of states) out.push(await scanner.scan(s, subtasks));
        return out;
      }
      return slots.map((slot) => (slot ? { tally: slot.collector.tally(), valuesScanned: slot.values } : undefined));
    },
  };
  return scanner;
}
