/**
 * A canonical savepoint of one keyed operator with one subtask and one key group (0): `state` is its one
 * state file (header and key-group data), `_metadata` (version 3) names it by relative path with the key
 * group's offset (0 when the key group has no data). For synthetic savepoints built byte by byte.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeCheckpointMetadata } from '../../src/core/flink/metadata/write-checkpoint-metadata';

export function writeOneKeyedSavepoint(dir: string, options: { operatorId: string; maxParallelism: number; keyGroupOffset: number; state: Uint8Array }): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'state'), options.state);
  writeFileSync(
    path.join(dir, '_metadata'),
    writeCheckpointMetadata({
      version: 3,
      checkpointId: 1n,
      operators: [
        {
          id: options.operatorId,
          parallelism: 1,
          maxParallelism: options.maxParallelism,
          coordinatorState: null,
          fullyFinished: false,
          subtasks: [
            {
              index: 0,
              finished: false,
              managedOperatorState: null,
              rawOperatorState: null,
              rawKeyedState: null,
              inputChannelStateCount: 0,
              resultSubpartitionStateCount: 0,
              managedKeyedState: {
                kind: 'key-groups',
                code: 7,
                range: { start: 0, end: 0 },
                offsets: [options.keyGroupOffset],
                delegate: { kind: 'relative-file', relativePath: 'state', size: options.state.length },
              },
            },
          ],
        },
      ],
    }),
  );
}
