/**
 * `check` reads the Protobuf states of one operator in one pass (scanOperator); each state's tally
 * must be what scanning it alone gives, including when the pass fails (a RocksDB native savepoint without its SST files)
 * and the readable states are then scanned alone.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStateValueScanner, evaluateSavepointStates } from '../../src/core/report';
import { openNodeInput } from '../../src/cli/sources';
import type { SavepointFiles } from '../../src/core/io';

const SCHEMA = path.resolve(process.cwd(), 'src/ui/demo-schema/events-changed.binpb');
const fixture = (p: string) => path.resolve(process.cwd(), 'fixtures/savepoints', p, 'savepoint');

describe('a state with two Protobuf types (e.g. a Protobuf key next to a Protobuf value)', () => {
  it('gives each serializer only the values read with its own type, in the one pass and alone', async () => {
    const files = await openNodeInput(fixture('flink-2.3/hashmap/canonical'));
    const evaluated = await evaluateSavepointStates({
      files,
      descriptorSet: { name: 'events-changed.binpb', bytes: new Uint8Array(readFileSync(SCHEMA)) },
      tool: { name: 't', version: '0' },
    });
    const scanner = createStateValueScanner(evaluated);
    const value = evaluated.protobuf.find((s) => s.found.state.name === 'last-event')!;
    // the same state as if it also had a serializer of another Protobuf type (another root, other descriptors)
    const other = {
      ...value,
      found: {
        ...value.found,
        role: 'KEY_SERIALIZER',
        content: { ...value.found.content, rootFullName: 'fixtures.events.Key', descriptorSha256: '0'.repeat(64) },
      },
    };
    const alone = await scanner.scan(value);
    if (alone === undefined || !('tally' in alone)) throw new Error(`expected a tally, found ${JSON.stringify(alone)}`);
    expect(alone.valuesScanned).toBeGreaterThan(0);
    expect(alone.tally.buckets.length).toBeGreaterThan(0);
    expect(await scanner.scan(other)).toEqual({ tally: { buckets: [] }, valuesScanned: 0 });
    expect(await scanner.scanOperator([value, other])).toEqual([alone, { tally: { buckets: [] }, valuesScanned: 0 }]);
  });
});

/** The savepoint without its SST files (told by the block-based table magic at their end). */
async function withoutSstFiles(files: SavepointFiles): Promise<SavepointFiles> {
  const hidden = new Set<string>();
  for (const f of files.files) if (f.size >= 8 && Buffer.from(await f.read(f.size - 8, 8)).toString('hex') === 'f7cff485b741e288') hidden.add(f.name);
  return {
    ...files,
    name: files.name,
    metadata: files.metadata,
    files: files.files,
    warnings: files.warnings,
    resolveRelative: (p) => {
      const s = files.resolveRelative(p);
      return s && hidden.has(s.name) ? undefined : s;
    },
  };
}

describe('one pass per operator over its Protobuf states', () => {
  for (const sp of [
    'flink-2.3/hashmap/canonical',
    'flink-2.3/rocksdb/canonical-compressed',
    'flink-1.20/hashmap/native',
    'flink-2.3/rocksdb/native',
    'flink-2.3/rocksdb/native#without-sst-files',
  ]) {
    it(`gives each state of ${sp} the tally of scanning it alone`, async () => {
      const files = sp.endsWith('#without-sst-files')
        ? await withoutSstFiles(await openNodeInput(fixture(sp.split('#')[0]!)))
        : await openNodeInput(fixture(sp));
      const evaluated = await evaluateSavepointStates({
        files,
        descriptorSet: { name: 'events-changed.binpb', bytes: new Uint8Array(readFileSync(SCHEMA)) },
        tool: { name: 't', version: '0' },
      });
      const scanner = createStateValueScanner(evaluated);
      const groups = new Map<string, typeof evaluated.protobuf>();
      for (const s of evaluated.protobuf) groups.set(s.found.operator.id, [...(groups.get(s.found.operator.id) ?? []), s]);
      expect([...groups.values()].some((g) => g.length >= 2)).toBe(true);
      let scanned = 0;
      for (const group of groups.values()) {
        const alone = [];
        for (const s of group) alone.push(await scanner.scan(s));
        expect(await scanner.scanOperator(group)).toEqual(alone);
        // and per subtask, as the worker threads scan them
        for (const subtask of [0, 1]) {
          const each = [];
          for (const s of group) each.push(await scanner.scan(s, [subtask]));
          expect(await scanner.scanOperator(group, [subtask])).toEqual(each);
        }
        scanned += alone.reduce((n, t) => n + (t !== undefined && 'tally' in t ? t.valuesScanned : 0), 0);
        // RocksDB native keyed states are read from their SST files; without them, they say why not
        if (sp.endsWith('rocksdb/native')) expect(alone.every((t) => t === undefined || 'tally' in t)).toBe(true);
        if (sp.endsWith('#without-sst-files') && group.some((s) => s.found.state.scope === 'keyed'))
          expect(alone.some((t) => t !== undefined && 'notRead' in t && t.notRead.startsWith('expected state file'))).toBe(true);
      }
      expect(scanned).toBeGreaterThan(0);
    });
  }
});
