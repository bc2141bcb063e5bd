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
  /**
   * What every finding of the rule shares (why it fails, what to do): a finding's `message` is the template's
   * statement, then `; ` and this note, so it reads whole on its own (JSON, SARIF, annotations); the report's
   * text formats and the app give each finding its statement and the note once per state (core/report).
   */
  note?: string;
  /**
   * Value rules that the structural scan of the saved values (`stats`) also checks, without a new
   * schema: the scan's name for the check, and how the first affected value is worded, per kind of
   * example the scan reports (`{name}` placeholders filled from the scan's facts).
   */
  scan?: { check: string; examples: Readonly<Record<string, string>> };
}

/** The `{name}` placeholders of a template, as a union of names (the parameters a finding of it carries). */
export type TemplatePlaceholders<T extends string> = T extends `${string}{${infer Name}}${infer Rest}` ? Name | TemplatePlaceholders<Rest> : never;

/** Fills `{name}` placeholders; an unknown placeholder is a programming error. */
export function formatRuleTemplate(template: string, params: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{([a-zA-Z]+)\}/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`Missing parameter ${key} for template "${template}"`);
    return String(value);
  });
}
