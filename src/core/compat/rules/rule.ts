/** One compatibility rule: id, outcome, message template (the single source for wording). */
export type RuleGroup = 'target' | 'identity' | 'settings' | 'structure' | 'value';

export interface RuleDefinition<Id extends string = string> {
  id: Id;
  /** the outcome a finding of this rule has; the value rules' is 'warning' */
  outcome: 'accepted' | 'rejected' | 'warning';
  group: RuleGroup;
  /** what the rule detects, in one line */
  summary: string;
  /** `{name}` placeholders are filled from a finding's parameters */
  template: string;
}

/** Fills `{name}` placeholders; an unknown placeholder is a programming error. */
export function formatRuleTemplate(template: string, params: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{([a-zA-Z]+)\}/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`Missing parameter ${key} for template "${template}"`);
    return String(value);
  });
}
