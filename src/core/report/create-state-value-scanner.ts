/**
 * The value half of `check`, per state: read the state's saved values with the structural scan
 * (the full decoder only where the scan cannot mirror it exactly) and count them into the value
 * warnings as they are read, keeping nothing per value. `subtasks` limits the read to some
 * subtasks (a worker thread's share); the tallies of all subtasks, merged in subtask order
 * (mergeStateValueTallies), equal the tally of one whole read. scanOperator reads the states of one
 * operator in one pass over its streams (a read of one state frames every state's entries anyway).
 */
import { createValueWarningCollector, identifyProtobufSchema, scanProtobufStateValues } from '../compat';
import type { CancelSignal } from '../flink';
import { isDecodeError, type DecodeError } from '../io';
import type { EvaluatedProtobufState, EvaluatedSavepoint, StateValuesNotRead, StateValueTally } from './check-savepoint-types';

export interface StateValueScanner {
  /** The tally of one state, why its values are not readable (e.g. RocksDB native), or undefined when it has no schema to check values against; a cancelled scan rejects. */
  scan(state: EvaluatedProtobufState, subtasks?: readonly number[]): Promise<StateValueTally | StateValuesNotRead | undefined>;
  /**
   * The tallies of several states of one operator, in order: each exactly what scan(state) gives. One
   * pass reads them all; should it fail, each state is scanned alone, so a state whose own values
   * are readable is never lost to another state's unreadable ones.
   */
  scanOperator(states: readonly EvaluatedProtobufState[], subtasks?: readonly number[]): Promise<(StateValueTally | StateValuesNotRead | undefined)[]>;
}

/**
 * Reads with the evaluation's session (`evaluated.session`): neither `_metadata` nor a stream header it read is
 * read again. With `shard`, only a key-group shard of it (StateScanSelection.keyGroupRange): the shards' tallies
 * of a state, merged in key-group order, equal the whole read's.
 */
export function createStateValueScanner(
  evaluated: EvaluatedSavepoint,
  signal?: CancelSignal,
  shard?: { keyGroupRange: { start: number; end: number }; operatorState?: boolean },
): StateValueScanner {
  const { opened: savepoint, registry, headers } = evaluated.session;

  /** One pass over the states' operator; throws what the read throws. */
  const tallyInOnePass = async (
    states: readonly EvaluatedProtobufState[],
    subtasks: readonly number[] | undefined,
  ): Promise<(StateValueTally | StateValuesNotRead | undefined)[]> => {
    // a state may hold several Protobuf types (key and value serializers): each serializer gets only the values read with its type
    const slots = states.map((s) =>
      s.compatibility.schema
        ? { collector: createValueWarningCollector(s.compatibility.schema, evaluated.newSettings), values: 0, schema: identifyProtobufSchema(s.found.content) }
        : undefined,
    );
    const byState = new Map<string, NonNullable<(typeof slots)[number]>[]>();
    states.forEach((s, i) => {
      const slot = slots[i];
      if (slot !== undefined) byState.set(s.found.state.name, [...(byState.get(s.found.state.name) ?? []), slot]);
    });
    if (byState.size === 0) return states.map(() => undefined);
    // values are counted into the warnings as they are read, never kept: memory stays bounded by the warnings' example keys
    await scanProtobufStateValues(savepoint, registry, {
      operatorId: states[0]!.found.operator.id,
      state: [...byState.keys()],
      onValue: (value, name, schema) => {
        for (const slot of byState.get(name) ?? []) {
          if (schema !== undefined && schema !== slot.schema) continue;
          slot.collector.add(value);
          slot.values++;
        }
      },
      ...(subtasks ? { subtasks } : {}),
      ...(signal ? { signal } : {}),
      headers,
      ...(shard ? { keyGroupRange: shard.keyGroupRange, ...(shard.operatorState === undefined ? {} : { operatorState: shard.operatorState }) } : {}),
    });
    return slots.map((slot) => (slot ? { tally: slot.collector.tally(), valuesScanned: slot.values } : undefined));
  };

  /** A failed read means "values not readable" (e.g. RocksDB native), except a cancellation: a report without its warnings must never look complete. */
  const isUnreadable = (e: unknown): boolean => isDecodeError(e) && e.code !== 'cancelled';

  const scanner: StateValueScanner = {
    async scan(state, subtasks) {
      try {
        return (await tallyInOnePass([state], subtasks))[0];
      } catch (e) {
        // the state's values are not readable here (e.g. RocksDB native): say why, never an empty tally
        if (isUnreadable(e)) return { notRead: (e as DecodeError).detail };
        throw e;
      }
    },
    async scanOperator(states, subtasks) {
      if (states.length === 1) return [await scanner.scan(states[0]!, subtasks)];
      if (states.some((s) => s.found.operator.id !== states[0]!.found.operator.id)) throw new Error('scanOperator: states of different operators');
      try {
        return await tallyInOnePass(states, subtasks);
      } catch (e) {
        if (!isUnreadable(e)) throw e;
        // each state alone: a state whose own values are readable is not lost to another state's unreadable ones
        const out: (StateValueTally | StateValuesNotRead | undefined)[] = [];
        for (const s of states) out.push(await scanner.scan(s, subtasks));
        return out;
      }
    },
  };
  return scanner;
}
