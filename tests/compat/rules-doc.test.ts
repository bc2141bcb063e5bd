/** docs/rules.md lists every registry rule with its outcome and exact template, and every scan check's wording, and nothing else. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/core/compat/rules';
import { requireCommitted } from '../helpers/committed-data';

const DOC = path.resolve(process.cwd(), 'docs/rules.md');

/** The table rows (cells, unescaped) of the doc's section `## <title>`. */
function tableRows(title: string): string[][] {
  const doc = readFileSync(DOC, 'utf8');
  const start = doc.indexOf(`\n## ${title}\n`);
  expect(start, title).toBeGreaterThanOrEqual(0);
  const end = doc.indexOf('\n## ', start + 1);
  return doc
    .slice(start, end < 0 ? undefined : end)
    .split('\n')
    .filter((l) => /^\| (<a id="[A-Z0-9_]+"><\/a>)?`[A-Z0-9_]+` \|/.test(l))
    .map((l) => l.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|')));
}

// a registry row's id cell starts with its anchor (<a id="ID"></a>, a SARIF helpUri's target)
const code = (cell: string | undefined) => cell!.replace(/^<a id="[A-Z0-9_]+"><\/a>/, '').replace(/^`|`$/g, '');

requireCommitted(DOC);

describe('docs/rules.md', () => {
  it('has one row per registry rule with the same outcome and template', () => {
    const rows = tableRows('Registry');
    const documented = new Map(rows.map((c) => [code(c[1]), { outcome: c[2], template: code(c[4]) }]));
    expect([...documented.keys()].sort()).toEqual(RULES.map((r) => r.id).sort());
    for (const r of RULES) expect(documented.get(r.id), r.id).toEqual({ outcome: r.outcome, template: r.template });
    // each row is the target of its rule's SARIF helpUri (rules.md#ID)
    for (const c of rows) expect(c[1], code(c[1])).toBe(`<a id="${code(c[1])}"></a>\`${code(c[1])}\``);
  });

  it('has one row per rule with a note, with the same note', () => {
    const documented = tableRows('Notes said once per state').map((c) => [code(c[1]), code(c[2])]);
    expect(documented).toEqual(RULES.flatMap((r) => ('note' in r ? [[r.id, r.note]] : [])));
  });

  it('has one row per kind of example of each scan check, with the same wording', () => {
    const documented = tableRows('Value checks of the structural scan').map((c) => [code(c[1]), code(c[2]), code(c[3]), code(c[4])]);
    const registry = RULES.flatMap((r) => ('scan' in r ? Object.entries(r.scan.examples).map(([kind, template]) => [r.id, r.scan.check, kind, template]) : []));
    expect(documented).toEqual(registry);
  });
});
