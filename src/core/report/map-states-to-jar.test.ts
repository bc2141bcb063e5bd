import { describe, expect, it } from 'vitest';
import { computeOperatorId } from '../flink';
import { mapStatesToJar } from './map-states-to-jar';
import type { ReportState } from './report-types';

const state = (operator: string, name: string, uid?: string): ReportState => ({
  operator,
  ...(uid ? { operatorUid: uid } : {}),
  state: name,
  role: 'VALUE_SERIALIZER',
  serializer: 'x',
  verdict: 'unknown',
  firstIncompatibility: null,
  findings: [],
  warnings: [],
});

describe('mapStatesToJar', () => {
  it('matches a stored uid by string, an operator without one by murmur3_128 of a string, and state names', () => {
    const hashedId = computeOperatorId('enricher');
    const mapping = mapStatesToJar(
      [
        state('a1', 'last-event', 'events'),
        state('a1', 'gone-state', 'events'),
        state(hashedId, 'cache'),
        state('ffff', 'orphan'),
        state('a1', '_timer_state/event_user-timers', 'events'),
        state('s', 'SourceReaderState', 'src'),
      ],
      { values: ['events', 'last-event', 'enricher', 'cache', 'src', 'brand-new'], uids: ['brand-new', 'enricher', 'events'], method: 'test', classesRead: 3 },
    );
    expect(mapping).toEqual({
      heuristic: true,
      method: 'test',
      operatorsNotFound: [{ operator: 'ffff' }],
      statesNotFound: [{ operator: 'a1', uid: 'events', state: 'gone-state' }],
      newUidsWithoutState: ['brand-new'],
    });
  });

  it('with no application class read, says no mapping was possible, never that every operator is dropped', () => {
    const mapping = mapStatesToJar([state('a1', 'last-event', 'events'), state('b2', 'cache', 'enricher')], {
      values: [],
      uids: [],
      method: 'string constants of 0 application class(es) of the job jar',
      classesRead: 0,
    });
    expect(mapping).toEqual({
      heuristic: true,
      method: 'string constants of 0 application class(es) of the job jar',
      notPossible: 'no application class of the jar was read, so no mapping was possible: nothing here says whether Flink would drop any state',
      operatorsNotFound: [],
      statesNotFound: [],
      newUidsWithoutState: [],
    });
  });
});
