/** docs/rules.md lists every registry rule with its outcome and exact template, and nothing else. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/core/compat/rules';

const DOC = path.resolve(process.cwd(), 'docs/rules.md');

describe.skipIf(!existsSync(DOC))('docs/rules.md', () => {
  it('has one row per registry rule with the same outcome and template', () => {
    const rows = readFileSync(DOC, 'utf8')
      .split('\n')
      .filter((l) => /^\| `[A-Z0-9_]+` \|/.test(l))
      .map((l) => l.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|')));
    const documented = new Map(rows.map((c) => [c[1]!.replace(/`/g, ''), { outcome: c[2], template: c[4]!.replace(/^`|`$/g, '') }]));
    expect([...documented.keys()].sort()).toEqual(RULES.map((r) => r.id).sort());
    for (const r of RULES) expect(documented.get(r.id), r.id).toEqual({ outcome: r.outcome, template: r.template });
  });
});
