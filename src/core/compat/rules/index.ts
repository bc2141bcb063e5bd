/** The rule registry: every finding's id, outcome and wording come from here. */
import { IDENTITY_RULES, TARGET_RULES } from './identity-rules';
import { STRUCTURE_RULES } from './structure-rules';
import { VALUE_RULES } from './value-rules';
import { formatRuleTemplate, type RuleDefinition, type TemplatePlaceholders } from './rule';

export type { RuleDefinition, RuleGroup } from './rule';
export { formatRuleTemplate } from './rule';

export const RULES = [...TARGET_RULES, ...IDENTITY_RULES, ...STRUCTURE_RULES, ...VALUE_RULES] as const;
export type RuleId = (typeof RULES)[number]['id'];
/** The ids of the value warnings. */
export type ValueRuleId = (typeof VALUE_RULES)[number]['id'];

/**
 * The parameters of a finding of rule `Id`: one per placeholder of its template (a number or a text,
 * as the message shows it). For a union of ids, the union of their parameter objects.
 */
export type RuleParams<Id extends RuleId> = Id extends RuleId
  ? { readonly [Name in TemplatePlaceholders<Extract<(typeof RULES)[number], { id: Id }>['template']>]: string | number }
  : never;

const BY_ID: ReadonlyMap<string, RuleDefinition> = new Map(RULES.map((rule) => [rule.id, rule as RuleDefinition]));

export function getRule(id: RuleId): RuleDefinition {
  const rule = BY_ID.get(id);
  if (!rule) throw new Error(`Unknown rule id ${id}`);
  return rule;
}

/** The message of a finding of rule `id`: the registry's template filled in, then the rule's note when it has one. */
export function formatRuleMessage<Id extends RuleId>(id: Id, params: RuleParams<Id>): string {
  const rule = getRule(id);
  const statement = formatRuleTemplate(rule.template, params);
  return rule.note === undefined ? statement : `${statement}; ${rule.note}`;
}

/**
 * A finding's message split into its own statement and its rule's note (undefined when the rule has none, or
 * when the message does not end with it): works from the message alone, so also on a report read back from JSON.
 */
export function splitRuleMessage(id: string, message: string): { statement: string; note?: string } {
  const note = BY_ID.get(id)?.note;
  return note !== undefined && message.endsWith(`; ${note}`) ? { statement: message.slice(0, -note.length - 2), note } : { statement: message };
}
