/**
 * Real savepoints from Flink's own repository that exposed reader defects (../shared/real-savepoints-defects,
 * its README says what each showed): each fixed defect keeps a test here over the real bytes.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { NEEDS_SHARED_TAG } from '../helpers/shared-savepoints';

const DEFECTS = path.resolve(process.cwd(), '../shared/real-savepoints-defects');
const NEEDS_DEFECTS = { tags: [NEEDS_SHARED_TAG], skip: !existsSync(DEFECTS) };
const at = (relative: string) => path.join(DEFECTS, relative);

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => void (out += t), stderr: (t) => void (err += t) });
  return { code, out, err };
}

describe('real savepoints that exposed reader defects', NEEDS_DEFECTS, () => {
  it('state-processor-api/table-state-nulls: a null CheckpointProperties (metadata V5, written by the State Processor API) reads as absent', async () => {
    const inspected = await cli(['inspect', at('state-processor-api/table-state-nulls'), '--json']);
    expect(inspected.err).toBe('');
    expect(inspected.code).toBe(0);
    const doc = JSON.parse(inspected.out) as { metadataVersion: number; type: string; format: string; operators: { uid: string | null; states: { name: string; entries: number | null }[] }[] };
    expect([doc.metadataVersion, doc.type, doc.format, doc.operators.length]).toEqual([5, 'unknown', 'unknown', 8]);
    const keyed = doc.operators.find((o) => o.uid === 'keyed-state-process-uid-null')!;
    expect(keyed.states.map((s) => [s.name, s.entries])).toEqual([['total', 5]]);
    // the values, nulls included, as the job wrote them (key i → PojoData{i, i}; keys 2 and 3 null fields)
    const dumped = await cli(['dump', at('state-processor-api/table-state-nulls'), '--operator', 'keyed-state-process-uid-null', '--state', 'total', '--json']);
    expect(dumped.code).toBe(0);
    const entries = (JSON.parse(dumped.out) as { entries: { keyGroup: number; key: { value: string }; value: { fields: { name: string; value: { kind: string; value?: string } }[] } }[] }).entries;
    expect(entries.map((e) => [e.keyGroup, e.key.value, e.value.fields.map((f) => (f.value.kind === 'null' ? null : f.value.value))])).toEqual([
      [7, '4', ['4', '4']],
      [86, '1', ['1', '1']],
      [113, '3', [null, null]],
      [126, '5', ['5', '5']],
      [127, '2', [null, null]],
    ]);
  });
});
