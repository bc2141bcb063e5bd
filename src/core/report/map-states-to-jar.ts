/**
 * The state-mapping heuristic (labelled so in every report): which saved operators and states the
 * new job jar seems not to claim. An operator is found when its uid is one of the jar's string
 * constants — or, without a stored uid (metadata before V5), when murmur3_128 of a constant is its
 * operator id (Flink's hash of a set uid); a state when its name is one. Flink restores such state
 * only with --allowNonRestoredState and then drops it. States that Flink itself names (timers, a
 * source operator's reader state) are not named by jobs and are not listed.
 */
import { computeOperatorId } from '../flink';
import type { ReportState, StateMappingReport } from './report-types';

/** operator state names Flink's own operators use (SourceOperator's reader state) */
const FLINK_STATE_NAMES = new Set(['SourceReaderState']);

export function mapStatesToJar(
  states: readonly ReportState[],
  literals: { values: readonly string[]; uids: readonly string[]; method: string; classesRead: number },
): StateMappingReport {
  // nothing scanned is no evidence: never report every operator as dropped
  if (literals.classesRead === 0) {
    return {
      heuristic: true,
      method: literals.method,
      notPossible: 'no application class of the jar was read, so no mapping was possible: nothing here says whether Flink would drop any state',
      operatorsNotFound: [],
      statesNotFound: [],
      newUidsWithoutState: [],
    };
  }
  const strings = new Set(literals.values);
  let hashed: Set<string> | undefined;
  const operators = new Map<string, { operator: string; uid?: string; found: boolean }>();
  for (const s of states) {
    if (operators.has(s.operator)) continue;
    let found: boolean;
    if (s.operatorUid !== undefined) found = strings.has(s.operatorUid);
    else {
      hashed ??= new Set(literals.values.map(computeOperatorId));
      found = hashed.has(s.operator);
    }
    operators.set(s.operator, { operator: s.operator, ...(s.operatorUid !== undefined ? { uid: s.operatorUid } : {}), found });
  }
  const operatorsNotFound = [...operators.values()].filter((o) => !o.found).map(({ operator, uid }) => ({ operator, ...(uid !== undefined ? { uid } : {}) }));
  const seen = new Set<string>();
  const statesNotFound: StateMappingReport['statesNotFound'] = [];
  for (const s of states) {
    const key = `${s.operator}/${s.state}`;
    if (seen.has(key) || s.state.startsWith('_timer_state/') || FLINK_STATE_NAMES.has(s.state) || !operators.get(s.operator)!.found || strings.has(s.state))
      continue;
    seen.add(key);
    statesNotFound.push({ operator: s.operator, ...(s.operatorUid !== undefined ? { uid: s.operatorUid } : {}), state: s.state });
  }
  const savedIds = new Set(operators.keys());
  const savedUids = new Set([...operators.values()].flatMap((o) => (o.uid === undefined ? [] : [o.uid])));
  const newUidsWithoutState = literals.uids.filter((uid) => !savedUids.has(uid) && !savedIds.has(computeOperatorId(uid)));
  return { heuristic: true, method: literals.method, operatorsNotFound, statesNotFound, newUidsWithoutState };
}
