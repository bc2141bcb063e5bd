/**
 * A value near the serializer's limit (64 MiB): one Protobuf value with a 60 MB bytes field, generated in
 * the test's scratch folder (never committed). Every command that reads or prints values — inspect (its
 * entry count decodes every value), dump, dump --json and export in every format — must end normally
 * on a thread whose heap is capped at 512 MiB (run-cli-cases.ts), where the value-printing paths used to
 * abort with "JavaScript heap out of memory": the JSON view was built for every decoded value (even to
 * count it), base64 was built four characters at a time (a string of 20 million concatenations), and
 * the text export encoded each line through an array of one number per byte.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeSavepointWithHugeValue } from '../helpers/write-savepoint-with-huge-value';
import { FIXTURE_SAVEPOINT, makeScratchDir } from './fuzz-workspace';
import { CliCaseRunner } from './run-cli-cases';

const BLOB = 60_000_000;
const scratch = makeScratchDir('large-values');
const runner = new CliCaseRunner();
afterAll(async () => {
  await runner.close();
  scratch.remove();
});

describe('a 60 MB value through every value-printing command, under a 512 MiB heap', () => {
  it('inspect, dump, dump --json and export in every format end normally, with the whole value', async () => {
    const sp = writeSavepointWithHugeValue(FIXTURE_SAVEPOINT, path.join(scratch.dir, 'sp'), BLOB);
    const state = ['--operator', 'int-keyed', '--state', 'processed-events'];
    const outcomes: string[] = [];
    const expectRun = async (argv: string[], check?: (stdout: string) => void) => {
      const run = await runner.run(argv, 300_000);
      outcomes.push(`${argv[0]} ${argv.slice(2).join(' ')}: exit ${run.code}${run.crashed === undefined ? '' : `, crashed: ${run.crashed.slice(0, 200)}`}${run.hung ? ', hung' : ''}`);
      if (run.code === 0) check?.(run.stdout);
    };
    await expectRun(['inspect', sp], (out) => expect(out).toContain('processed-events  OPERATOR_LIST (operator), 24 entries, subtasks 0,1\n'));
    await expectRun(['dump', sp, ...state]);
    await expectRun(['dump', sp, ...state, '--json']);
    for (const format of ['jsonl', 'csv', 'parquet', 'arrow']) {
      const out = path.join(scratch.dir, `out.${format}`);
      await expectRun(['export', sp, ...state, '--format', format, '--output', out, '--quiet'], (stdout) => expect(stdout).toBe(`${out}: 24 rows of state "processed-events" (24 entries)\n`));
    }
    expect(outcomes).toEqual([
      'inspect : exit 0',
      `dump ${state.join(' ')}: exit 0`,
      `dump ${state.join(' ')} --json: exit 0`,
      ...['jsonl', 'csv', 'parquet', 'arrow'].map((f) => `export ${state.join(' ')} --format ${f} --output ${path.join(scratch.dir, `out.${f}`)} --quiet: exit 0`),
    ]);
    // the JSON Lines row holds the whole field: its base64 (80,000,000 characters) in the value
    const line = readFileSync(path.join(scratch.dir, 'out.jsonl'), 'utf8').split('\n').find((l) => l.length > BLOB)!;
    expect((JSON.parse(line) as { value: { blob: string } }).value.blob).toHaveLength((BLOB / 3) * 4);
  });
});
