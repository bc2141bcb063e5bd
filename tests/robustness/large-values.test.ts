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
import { EXPORT_UNKNOWN_FIELDS_PER_VALUE } from '../../src/core/export';
import { writeSavepointWithHugeValue, writeSavepointWithPatchedValue } from '../helpers/write-savepoint-with-huge-value';
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
      outcomes.push(
        `${argv[0]} ${argv.slice(2).join(' ')}: exit ${run.code}${run.crashed === undefined ? '' : `, crashed: ${run.crashed.slice(0, 200)}`}${run.hung ? ', hung' : ''}`,
      );
      if (run.code === 0) check?.(run.stdout);
    };
    await expectRun(['inspect', sp], (out) => expect(out).toContain('processed-events  OPERATOR_LIST (operator), 24 entries, subtasks 0,1\n'));
    await expectRun(['dump', sp, ...state]);
    await expectRun(['dump', sp, ...state, '--format', 'json']);
    for (const format of ['jsonl', 'csv', 'parquet', 'arrow']) {
      const out = path.join(scratch.dir, `out.${format}`);
      await expectRun(['export', sp, ...state, '--format', format, '--output', out], (stdout) =>
        expect(stdout).toBe(`${out}: 24 rows of state "processed-events" (24 entries)\n`),
      );
    }
    expect(outcomes).toEqual([
      'inspect : exit 0',
      `dump ${state.join(' ')}: exit 0`,
      `dump ${state.join(' ')} --format json: exit 0`,
      ...['jsonl', 'csv', 'parquet', 'arrow'].map((f) => `export ${state.join(' ')} --format ${f} --output ${path.join(scratch.dir, `out.${f}`)}: exit 0`),
    ]);
    // the JSON Lines row holds the whole field: its base64 (80,000,000 characters) in the value
    const line = readFileSync(path.join(scratch.dir, 'out.jsonl'), 'utf8')
      .split('\n')
      .find((l) => l.length > BLOB)!;
    expect((JSON.parse(line) as { value: { blob: string } }).value.blob).toHaveLength((BLOB / 3) * 4);
  });
});

/** `n` unknown varint fields 300 (tag and a 3-byte value each: 5 bytes) appended to a value. */
function manyUnknownFields(n: number): Uint8Array {
  const out = new Uint8Array(n * 5);
  for (let i = 0, at = 0; i < n; i++) {
    out[at++] = 0xe0; // field 300, varint: (300 << 3) = 2400 = 0xe0 0x12
    out[at++] = 0x12;
    out[at++] = 0x80 | (i & 0x7f);
    out[at++] = 0x80 | ((i >>> 7) & 0x7f);
    out[at++] = (i >>> 14) & 0x7f;
  }
  return out;
}

/** `n` entries of `map<string, Detail> details = 7` ("k0000000" → Detail { text: "abc", code: i }) appended to a value. */
function manyMapEntries(n: number): Uint8Array {
  const out = new Uint8Array(n * 24);
  const view = new DataView(out.buffer);
  for (let i = 0, at = 0; i < n; i++) {
    out.set([0x3a, 22, 0x0a, 8], at); // field 7, length-delimited; key = 1, a string of 8 characters
    at += 4;
    for (const c of `k${String(i).padStart(7, '0')}`) out[at++] = c.charCodeAt(0);
    out.set([0x12, 10, 0x0a, 3, 0x61, 0x62, 0x63, 0x15], at); // value = 2: Detail { text = 1: "abc", code = 2: fixed32 }
    at += 8;
    view.setUint32(at, i, true);
    at += 4;
  }
  return out;
}

/** Above this growth of the resident set during one command, a large value costs too much (with the runner's own ~150 MiB: about the 512 MiB goal; dump --json of the map below grew by 293–298 MiB, 414 MiB before its fix). */
const LARGE_VALUE_RSS_GROWTH = 352 * 1024 * 1024;

describe('a value of a million unknown fields, and one of 300,000 map entries, under a 512 MiB heap', () => {
  const state = ['--operator', 'int-keyed', '--state', 'processed-events'];
  const mib = (n: number) => Math.round(n / 1048576);

  it('every export format ends normally within bounded memory, and its row says how many unknown fields it holds and how many were left out', async () => {
    const sp = writeSavepointWithPatchedValue(FIXTURE_SAVEPOINT, path.join(scratch.dir, 'unknown'), manyUnknownFields(1_000_000));
    const outcomes: string[] = [];
    for (const format of ['jsonl', 'csv', 'parquet', 'arrow']) {
      const out = path.join(scratch.dir, `unknown.${format}`);
      const run = await runner.run(['export', sp, ...state, '--format', format, '--output', out, '--quiet'], 300_000);
      outcomes.push(
        `${format}: exit ${run.code}${run.crashed === undefined ? '' : `, crashed: ${run.crashed.slice(0, 200)}`}${run.rssGrowth > LARGE_VALUE_RSS_GROWTH ? `, RSS grew by ${mib(run.rssGrowth)} MiB` : ''}`,
      );
    }
    expect(outcomes).toEqual(['jsonl: exit 0', 'csv: exit 0', 'parquet: exit 0', 'arrow: exit 0']);
    const line = readFileSync(path.join(scratch.dir, 'unknown.jsonl'), 'utf8')
      .split('\n')
      .find((l) => l.includes('unknownFieldsOmitted'))!;
    const row = JSON.parse(line) as { unknownFields: { number: number; bytes: string }[]; unknownFieldsOmitted: number };
    expect(row.unknownFields).toHaveLength(EXPORT_UNKNOWN_FIELDS_PER_VALUE);
    // the fixture's value has an unknown field 100 of its own, then come the million
    expect(row.unknownFields.slice(0, 2)).toEqual([
      { path: '', number: 100, wireType: 0, bytes: Buffer.from([0xa0, 0x06, 0x63]).toString('base64') },
      { path: '', number: 300, wireType: 0, bytes: Buffer.from([0xe0, 0x12, 0x80, 0x80, 0x00]).toString('base64') },
    ]);
    expect(row.unknownFieldsOmitted).toBe(1_000_001 - EXPORT_UNKNOWN_FIELDS_PER_VALUE);
  });

  it('dump --json of a value of 300,000 map entries ends normally within bounded memory', async () => {
    const sp = writeSavepointWithPatchedValue(FIXTURE_SAVEPOINT, path.join(scratch.dir, 'map'), manyMapEntries(300_000));
    // its own thread: the growth is measured from a fresh heap, not one the exports above left large
    const fresh = new CliCaseRunner();
    const run = await fresh.run(['dump', sp, ...state, '--format', 'json'], 300_000).finally(() => fresh.close());
    expect(
      `exit ${run.code}${run.crashed === undefined ? '' : `, crashed: ${run.crashed.slice(0, 200)}`}, RSS grew by ${run.rssGrowth > LARGE_VALUE_RSS_GROWTH ? `${mib(run.rssGrowth)} MiB` : 'less than the bound'}`,
    ).toBe('exit 0, RSS grew by less than the bound');
    console.log(`dump --json of 300,000 map entries: RSS grew by ${mib(run.rssGrowth)} MiB`);
  });
});
