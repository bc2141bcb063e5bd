/**
 * `check` builds the schema diff only for formats that print it: the formats said not to show it
 * (formatShowsSchemaDiff) give the same bytes with and without the diff, and the ones said to show it
 * differ — so a format that starts printing the diff without saying so fails here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSavepoint, formatReport, formatShowsSchemaDiff, REPORT_FORMATS } from '../../src/core/report';
import { openNodeInput } from '../../src/cli/sources';

const SAVEPOINT = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');
const SCHEMA = path.resolve(process.cwd(), 'src/ui/demo-schema/events-changed.binpb');

describe('check without the schema diff', () => {
  it('changes exactly the formats that show the diff (JSON and HTML)', async () => {
    const run = async (schemaDiff: boolean) =>
      checkSavepoint({
        files: await openNodeInput(SAVEPOINT),
        descriptorSet: { name: 'events-changed.binpb', bytes: new Uint8Array(readFileSync(SCHEMA)) },
        tool: { name: 't', version: '0' },
        target: '1.x',
        schemaDiff,
      });
    const withDiff = await run(true);
    const without = await run(false);
    expect(withDiff.states.some((s) => s.diff !== undefined && s.diff.declarations.length > 0)).toBe(true);
    expect(without.states.every((s) => s.diff === undefined)).toBe(true);
    for (const format of REPORT_FORMATS) {
      expect(formatReport(without, format) !== formatReport(withDiff, format), format).toBe(formatShowsSchemaDiff(format));
    }
  });
});
