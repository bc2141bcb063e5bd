/**
 * The value-aware warnings that decide whether restored data stays correct, gathered over every
 * state of a report for the callouts: UNKNOWN_NUMBER_BECOMES_FIELD grouped per (message, number)
 * with the new field's name and type from the state's schema diff, and VALUE_EXCEEDS_NEW_LIMIT
 * grouped per limit.
 */
import { findNewField } from '../compat';
import type { CompatibilityReport, ReportState } from './report-types';

export interface AlertState {
  operator: string;
  /** uid or name when the savepoint records one */
  operatorLabel?: string;
  state: string;
  count: number;
  keys: string[];
}

export interface BecomesFieldAlert {
  kind: 'becomes-field';
  message: string;
  number: number;
  newName: string;
  /** the new field's type as the diff shows it (`INT64`, `MESSAGE fixtures.X`); undefined when the diff does not list it */
  newType?: string;
  /** `repeated`, `optional`, … (omitted for singular) */
  newLabel?: string;
  total: number;
  states: AlertState[];
}

export interface ExceedsLimitAlert {
  kind: 'exceeds-limit';
  limit: string;
  value: string;
  total: number;
  /** the largest offending payload size or depth over all states */
  largest: number;
  states: AlertState[];
}

export interface ValueAlerts {
  becomesField: BecomesFieldAlert[];
  exceedsLimit: ExceedsLimitAlert[];
}

export function collectValueAlerts(report: CompatibilityReport): ValueAlerts {
  const becomes = new Map<string, BecomesFieldAlert>();
  const exceeds = new Map<string, ExceedsLimitAlert>();
  for (const s of report.states) {
    for (const w of s.warnings) {
      const at: AlertState = { operator: s.operator, ...labelOf(s), state: s.state, count: w.count, keys: [...w.keys] };
      if (w.ruleId === 'UNKNOWN_NUMBER_BECOMES_FIELD') {
        const p = w.params;
        const key = `${p.message}|${p.number}|${p.name}`;
        let a = becomes.get(key);
        if (!a) {
          const field = findNewField(s.diff, String(p.message), p.number);
          a = { kind: 'becomes-field', message: String(p.message), number: Number(p.number), newName: String(p.name), total: 0, states: [] };
          if (field?.type) a.newType = field.type;
          if (field?.label && field.label !== 'singular') a.newLabel = field.label;
          becomes.set(key, a);
        }
        a.total += w.count;
        a.states.push(at);
      } else if (w.ruleId === 'VALUE_EXCEEDS_NEW_LIMIT') {
        const p = w.params;
        const key = `${p.limit}|${p.value}`;
        let a = exceeds.get(key);
        if (!a) exceeds.set(key, (a = { kind: 'exceeds-limit', limit: String(p.limit), value: String(p.value), total: 0, largest: 0, states: [] }));
        a.total += w.count;
        a.largest = Math.max(a.largest, Number(p.largest) || 0);
        a.states.push(at);
      }
    }
  }
  return { becomesField: [...becomes.values()], exceedsLimit: [...exceeds.values()] };
}

function labelOf(s: ReportState): { operatorLabel?: string } {
  const label = s.operatorUid ?? s.operatorName;
  return label ? { operatorLabel: label } : {};
}
