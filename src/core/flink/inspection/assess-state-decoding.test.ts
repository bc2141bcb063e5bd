import { describe, expect, it } from 'vitest';
import type { StateReadGap } from '../scan/count-state-entries';
import { assessStateDecoding, summarizeStateDecoding } from './assess-state-decoding';
import type { InspectedOperator, InspectedState } from '../savepoint/inspection-types';

const OP = 'aa'.repeat(16);

function state(name: string, extra: Partial<InspectedState> = {}): InspectedState {
  return { name, scope: 'keyed', kind: 'VALUE', backendStateType: 'KEY_VALUE', status: 'ok', subtasks: [0, 1], entries: 3, ...extra };
}

function operator(states: InspectedState[], streamsNotRead: InspectedOperator['streamsNotRead'] = []): InspectedOperator {
  return {
    id: OP,
    parallelism: 2,
    maxParallelism: 4,
    fullyFinished: false,
    subtaskCount: 2,
    stateSize: 0,
    keyedFormat: 'canonical',
    states,
    streamsNotRead,
    warnings: [],
  };
}

const gap = (g: Partial<StateReadGap> & Pick<StateReadGap, 'kind' | 'reason'>): StateReadGap => ({ operatorId: OP, subtask: 1, scope: 'keyed', ...g });
const outcome = (s: InspectedState) => [s.name, s.decoded, s.decodedReason ?? null];

describe('assessStateDecoding', () => {
  it('decides fully, partly and not read from the scan gaps, the header status and the counts', () => {
    const ops = [
      operator([
        state('clean'),
        state('stopped', { entries: 2 }),
        state('stopped-early', { entries: 0 }),
        state('unknown-values', { status: 'unknown', statusReason: 'unknown serializer snapshot X v1' }),
        state('unknown-empty', { status: 'unknown', statusReason: 'unknown serializer snapshot X v1', entries: 0 }),
        state('native', { status: 'unreadable', statusReason: 'SST files', entries: undefined }),
        state('materialized', { incomplete: 'changes not applied', entries: 0 }),
        state('op-list', { scope: 'operator', kind: 'OPERATOR_LIST', backendStateType: 'OPERATOR' }),
      ]),
    ];
    assessStateDecoding(ops, [
      gap({ kind: 'failed', reason: 'bad bytes', states: ['stopped', 'stopped-early'] }),
      gap({ kind: 'unreadable', reason: 'SST files', states: ['native'] }),
      gap({ kind: 'incomplete', reason: 'changes not applied', states: ['materialized'] }),
      // an operator stream whose header failed names no states: it holds every operator state of its subtask
      gap({ kind: 'failed', reason: 'header', scope: 'operator', subtask: 0 }),
    ]);
    expect(ops[0]!.states.map(outcome)).toEqual([
      ['clean', 'fully', null],
      ['stopped', 'partly', 'subtask 1 stopped: bad bytes'],
      ['stopped-early', 'not-read', 'subtask 1 stopped: bad bytes'],
      ['unknown-values', 'partly', 'values not decoded: unknown serializer snapshot X v1'],
      // no entry to decode: nothing is missing
      ['unknown-empty', 'fully', null],
      ['native', 'not-read', 'SST files'],
      // the materialized part was read (no entries), the changes after it were not
      ['materialized', 'partly', 'changes not applied'],
      ['op-list', 'partly', 'subtask 0 stopped: header'],
    ]);
    expect(summarizeStateDecoding(ops)).toEqual({ states: 8, decodedFully: 2, partlyDecoded: 4, notRead: 2, notScanned: 0, streamsNotRead: 0 });
  });

  it('without a scan marks only what the headers show unreadable, and counts the rest as not scanned', () => {
    const ops = [
      operator(
        [state('a', { entries: undefined }), state('native', { status: 'unreadable', statusReason: 'SST files', entries: undefined })],
        [{ subtask: 1, scope: 'keyed', reason: 'header failed' }],
      ),
    ];
    assessStateDecoding(ops, undefined);
    expect(ops[0]!.states.map(outcome)).toEqual([
      ['a', undefined, null],
      ['native', 'not-read', 'SST files'],
    ]);
    expect(summarizeStateDecoding(ops)).toEqual({ states: 2, decodedFully: 0, partlyDecoded: 0, notRead: 1, notScanned: 1, streamsNotRead: 1 });
  });
});
