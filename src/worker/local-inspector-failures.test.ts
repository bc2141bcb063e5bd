/**
 * What the UI is handed for each kind of failure: bad input goes through the real LocalInspector
 * (and the worker's toInspectorFailure, which every worker call passes its rejections through), and
 * the failure carries its kind (input / network / internal), its code and the exact message.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { create, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import type { InputFile, InspectorFailure } from './inspector';
import { LocalInspector } from './local-inspector';
import { toInspectorFailure } from './to-inspector-failure';

const FIXTURE = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/canonical/savepoint');
const OPERATORS = '0c80f7e50ab54b30f6a2580946f9e942, 732aacc57f1a1cd4ab51694dd9eed722, 6d821971c3bfd7ae2c972e89d7414f7c, c3919b0b80c770dcaba928458d2e49b0, 69ee92ec1299dfd00071bfb77ad99663, bc8a7c197f2c5342464d83d5fa4660e9, e635e88f2157f1386a91248eacaad37a';

const file = (p: string, bytes: number[] | Uint8Array): InputFile => ({ path: p, blob: new Blob([new Uint8Array(bytes)]) });
function fixtureFiles(): InputFile[] {
  const walk = (dir: string): string[] => readdirSync(dir).flatMap((n) => (statSync(path.join(dir, n)).isDirectory() ? walk(path.join(dir, n)) : [path.join(dir, n)]));
  return walk(FIXTURE).map((f) => ({ path: `sp/${path.relative(FIXTURE, f).split(path.sep).join('/')}`, blob: new Blob([readFileSync(f)]) }));
}

/** The failure data the UI receives for what `run` rejects with (a call that succeeds fails the test). */
async function failureOf(run: () => Promise<unknown>): Promise<InspectorFailure> {
  try {
    await run();
  } catch (e) {
    return toInspectorFailure(e);
  }
  throw new Error('expected the call to fail');
}

const usage = (code: string, message: string) => ({ kind: 'input', name: 'UsageError', code, message, detail: message, path: [] });

describe('failures of the app state and of requests are UsageErrors (kind input), not DecodeErrors', () => {
  it('nothing open, no files, only a schema, a check without a schema', async () => {
    expect(await failureOf(() => new LocalInspector().getInspection())).toEqual(usage('nothing-open', 'nothing is open: open a savepoint first'));
    expect(await failureOf(() => new LocalInspector().open({ kind: 'files', files: [] }))).toEqual(
      usage('no-input', 'no files were given: drop a savepoint folder, a .zip/.tar/.tar.gz of one, or a _metadata file'),
    );
    const schemaOnly = new LocalInspector();
    await schemaOnly.open({ kind: 'files', files: [file('new.binpb', [0x0a, 0x00])] });
    expect(await failureOf(() => schemaOnly.getStateStats({ operatorId: 'x', state: 'y' }))).toEqual(
      usage('no-savepoint', 'new.binpb is a Protobuf descriptor set (the new schema), not a savepoint: add the savepoint too — its folder, a .zip/.tar/.tar.gz of it, or its _metadata file'),
    );
    const noSchema = new LocalInspector();
    await noSchema.open({ kind: 'files', files: fixtureFiles() });
    expect(await failureOf(() => noSchema.checkHeaders({ target: '1.x', newSettings: {} }))).toEqual(
      usage('no-schema', 'no new schema was given: drop a descriptor set (.pb, .binpb, .desc, .protoset) to check compatibility'),
    );
  });

  it('an operator, an entry or a saved schema the savepoint does not hold is not-found', async () => {
    const inspector = new LocalInspector();
    await inspector.open({ kind: 'files', files: fixtureFiles() });
    expect(await failureOf(() => inspector.getStateStats({ operatorId: 'nope', state: 'rules' }))).toEqual(
      usage('not-found', `expected an operator id or uid of this savepoint, found nope (operators: ${OPERATORS})`),
    );
    expect(await failureOf(() => inspector.getSavedSchema('abc'))).toEqual(usage('not-found', 'the open savepoint has no saved schema with SHA-256 abc'));
    const inspection = await inspector.getInspection();
    const op = inspection.operators.find((o) => o.states.some((s) => s.name === 'rules'))!;
    expect(await failureOf(() => inspector.getEntryDetail({ operatorId: op.id, state: 'rules', index: -1 }))).toEqual(usage('not-found', 'entry -1 does not exist: state rules has 6 entries'));
  });

});

describe('input that is read: DecodeErrors (kind input) with file, offset and path', () => {
  it('a dropped folder that is not a savepoint, and a descriptor set with an import cycle', async () => {
    expect(await failureOf(() => new LocalInspector().open({ kind: 'files', files: [file('dir/a.txt', [1, 2]), file('dir/b.txt', [3])] }))).toEqual({
      kind: 'input',
      name: 'DecodeError',
      code: 'not-recognised',
      message: "expected a savepoint (a file named _metadata) in dir, found 2 files: 'dir/a.txt', 'dir/b.txt' — at dir, offset 0 (0x0)",
      detail: "expected a savepoint (a file named _metadata) in dir, found 2 files: 'dir/a.txt', 'dir/b.txt'",
      file: 'dir',
      offset: 0,
      path: [],
    });
    const cyclic = toBinary(
      FileDescriptorSetSchema,
      create(FileDescriptorSetSchema, {
        file: [
          { name: 'a.proto', package: 'p', syntax: 'proto3', dependency: ['b.proto'], messageType: [{ name: 'A' }] },
          { name: 'b.proto', package: 'p', syntax: 'proto3', dependency: ['a.proto'], messageType: [{ name: 'B' }] },
        ],
      }),
    );
    const inspector = new LocalInspector();
    await inspector.open({ kind: 'files', files: [...fixtureFiles(), file('cyclic.binpb', cyclic)] });
    expect(await failureOf(() => inspector.checkHeaders({ target: '1.x', newSettings: {} }))).toEqual({
      kind: 'input',
      name: 'DecodeError',
      code: 'invalid-value',
      message: 'Invalid descriptor set: Cyclic descriptor file imports — at cyclic.binpb, offset 0 (0x0) [descriptor set]',
      detail: 'Invalid descriptor set: Cyclic descriptor file imports',
      file: 'cyclic.binpb',
      offset: 0,
      path: ['descriptor set'],
    });
  });
});

