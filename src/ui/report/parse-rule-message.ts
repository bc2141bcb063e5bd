/**
 * Reads a finding's or warning's parameters back out of its message, using the rule's own template
 * from the registry (the single source of wording), so the UI can show them apart: the field
 * number, message and new name of an UNKNOWN_NUMBER_BECOMES_FIELD warning, the saved line of a
 * TARGET_CANNOT_READ_SNAPSHOT finding. Returns null when the message does not fit the template.
 */
import { getRule, type RuleId } from '../../core/compat';

const PATTERNS = new Map<string, { regex: RegExp; names: string[] }>();

function compileTemplate(template: string): { regex: RegExp; names: string[] } {
  const names: string[] = [];
  let source = '';
  let last = 0;
  for (const m of template.matchAll(/\{([a-zA-Z]+)\}/g)) {
    source += escapeRegex(template.slice(last, m.index));
    // a parameter is any text; the literal text around it anchors it (lazy, whole message)
    source += '([\\s\\S]*?)';
    names.push(m[1]);
    last = m.index + m[0].length;
  }
  source += escapeRegex(template.slice(last));
  return { regex: new RegExp(`^${source}$`), names };
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function parseRuleMessage(ruleId: string, message: string): Record<string, string> | null {
  let pattern = PATTERNS.get(ruleId);
  if (!pattern) {
    let template: string;
    try {
      template = getRule(ruleId as RuleId).template;
    } catch {
      return null;
    }
    pattern = compileTemplate(template);
    PATTERNS.set(ruleId, pattern);
  }
  const m = pattern.regex.exec(message);
  if (!m) return null;
  return Object.fromEntries(pattern.names.map((name, i) => [name, m[i + 1]]));
}
