/**
 * What the UI is handed for each kind of failure: bad input goes through the real LocalInspector
 * (and the worker's toInspectorFailure, which every worker call passes its rejections through), and
 * the failure carries its kind (input / network / internal), its code and the exact message.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { create, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InputFile, InspectorFailure } from './inspector';
import { LocalInspector } from './local-inspector';
import { walkFileSystemEntries } from './sources';
import { toInspectorFailure } from './to-inspector-failure';
import { MAX_RESULT_DEPTH, toPlainData } from './to-plain-data';

const FIXTURE = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/canonical/savepoint');
const OPERATORS =
  '0c80f7e50ab54b30f6a2580946f9e942, 732aacc57f1a1cd4ab51694dd9eed722, 6d821971c3bfd7ae2c972e89d7414f7c, c3919b0b80c770dcaba928458d2e49b0, 69ee92ec1299dfd00071bfb77ad99663, bc8a7c197f2c5342464d83d5fa4660e9, e635e88f2157f1386a91248eacaad37a';

const file = (p: string, bytes: number[] | Uint8Array): InputFile => ({ path: p, blob: new Blob([new Uint8Array(bytes)]) });
function fixtureFiles(): InputFile[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((n) => (statSync(path.join(dir, n)).isDirectory() ? walk(path.join(dir, n)) : [path.join(dir, n)]));
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

/** What `fn` throws (a call that returns fails the test). */
function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected the call to throw');
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
      usage(
        'no-savepoint',
        'new.binpb is a Protobuf descriptor set (the new schema), not a savepoint: add the savepoint too — its folder, a .zip/.tar/.tar.gz of it, or its _metadata file',
      ),
    );
    const noSchema = new LocalInspector();
    await noSchema.open({ kind: 'files', files: fixtureFiles() });
    expect(await failureOf(() => noSchema.checkHeaders({ target: '1.x', newSettings: {} }))).toEqual(
      usage('no-schema', "no new schema was given: drop the new job's jar (.jar) or a descriptor set (.pb, .binpb, .desc, .protoset) to check compatibility"),
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
    expect(await failureOf(() => inspector.getEntryDetail({ operatorId: op.id, state: 'rules', index: -1 }))).toEqual(
      usage('not-found', 'entry -1 does not exist: state rules has 6 entries'),
    );
  });

  it('a URL that is not http(s) is bad-url', async () => {
    expect(await failureOf(() => new LocalInspector().open({ kind: 'url', url: 'savepoints/sp-1/', schemaFiles: [] }))).toEqual(
      usage('bad-url', 'expected an http(s) URL of a savepoint folder or archive, found “savepoints/sp-1/”'),
    );
    expect(await failureOf(() => new LocalInspector().open({ kind: 'url', url: 'file:///tmp/sp-1/', schemaFiles: [] }))).toEqual(
      usage('bad-url', 'expected an http(s) URL of a savepoint folder or archive, found a file: URL'),
    );
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
      message: 'Invalid descriptor set: Cyclic descriptor file imports: a.proto → b.proto → a.proto — at cyclic.binpb, offset 0 (0x0) [descriptor set]',
      detail: 'Invalid descriptor set: Cyclic descriptor file imports: a.proto → b.proto → a.proto',
      file: 'cyclic.binpb',
      offset: 0,
      path: ['descriptor set'],
    });
  });

  it('a lone _metadata: each missing state file is an error naming its file and its path once', async () => {
    const inspector = new LocalInspector();
    await inspector.open({ kind: 'files', files: fixtureFiles().filter((f) => f.path.endsWith('/_metadata')) });
    const inspection = await inspector.getInspection();
    const missing = inspection.errors.filter((e) => e.code === 'missing-file');
    expect(missing.length).toBeGreaterThan(0);
    for (const e of missing) {
      expect(e.path).toHaveLength(3);
      expect(e.path[0]).toMatch(/^operator /);
      expect(e.path[1]).toMatch(/^subtask \d+$/);
      // located at the handle's path string in _metadata
      expect(e.offset).toBeTypeOf('number');
      expect(e.message).toContain(`at ${e.file}, offset ${e.offset} (0x${e.offset!.toString(16)}) [${e.path.join(' / ')}]`);
    }
  });

  it('a dropped file or folder the browser will not read any more is missing-file; a drop of too many files is a UsageError', async () => {
    const gone = {
      name: 'state',
      isFile: true,
      isDirectory: false,
      file: (_ok: unknown, fail: (e: Error) => void) =>
        fail(Object.assign(new Error('A requested file or directory could not be found'), { name: 'NotFoundError' })),
    };
    const folder = (children: unknown[], name = 'sp') =>
      ({
        name,
        isFile: false,
        isDirectory: true,
        createReader: () => ({ readEntries: (ok: (e: unknown[]) => void) => ok(children.splice(0)) }),
      }) as unknown as FileSystemEntry;
    expect(await failureOf(() => walkFileSystemEntries([folder([gone])]))).toEqual({
      kind: 'input',
      name: 'DecodeError',
      code: 'missing-file',
      message:
        'expected to read sp/state, found the browser cannot read it (NotFoundError: A requested file or directory could not be found); drop it again — at sp/state',
      detail: 'expected to read sp/state, found the browser cannot read it (NotFoundError: A requested file or directory could not be found); drop it again',
      file: 'sp/state',
      path: [],
    });
    const one = new File(['x'], 'f');
    const many = Array.from({ length: 200_001 }, (_, i) => ({ name: `f${i}`, isFile: true, isDirectory: false, file: (ok: (f: File) => void) => ok(one) }));
    expect(await failureOf(() => walkFileSystemEntries([folder(many, 'big')]))).toEqual(
      usage('too-many-files', 'expected a savepoint folder of at most 200000 files, found a drop holding more: drop the savepoint folder itself'),
    );
  });

  it('a descriptor set the browser cannot read any more (changed or removed after it was picked) is missing-file', async () => {
    class GoneBlob extends Blob {
      override slice(): Blob {
        return { arrayBuffer: () => Promise.reject(new DOMException('The requested file could not be read', 'NotReadableError')) } as unknown as Blob;
      }
    }
    const detail = 'expected to read new.binpb, found the browser cannot read it any more (The requested file could not be read); pick it again';
    expect(
      await failureOf(() =>
        new LocalInspector().open({ kind: 'files', files: [...fixtureFiles(), { path: 'new.binpb', blob: new GoneBlob([new Uint8Array(4)]) }] }),
      ),
    ).toEqual({
      kind: 'input',
      name: 'DecodeError',
      code: 'missing-file',
      message: `${detail} — at new.binpb, offset 0 (0x0)`,
      detail,
      file: 'new.binpb',
      offset: 0,
      path: [],
    });
    // read fine when opened (hashed), gone when the check reads it
    class LaterGoneBlob extends Blob {
      reads = 0;
      override slice(start?: number, end?: number): Blob {
        return ++this.reads > 1 ? new GoneBlob().slice() : super.slice(start, end);
      }
    }
    const inspector = new LocalInspector();
    await inspector.open({
      kind: 'files',
      files: [...fixtureFiles(), { path: 'new.binpb', blob: new LaterGoneBlob([readFileSync('src/ui/demo-schema/events-changed.binpb')]) }],
    });
    expect(await failureOf(() => inspector.checkHeaders({ target: '1.x', newSettings: {} }))).toMatchObject({ kind: 'input', code: 'missing-file', detail });
  });

  it('a result nested deeper than the page is sent is limit-exceeded; a cycle in our own result data is internal', () => {
    let deep: unknown = 1;
    for (let i = 0; i <= MAX_RESULT_DEPTH + 1; i++) deep = { v: deep };
    expect(() => toPlainData((deep as { v: unknown }).v)).not.toThrow();
    expect(toInspectorFailure(thrownBy(() => toPlainData(deep)))).toEqual({
      kind: 'input',
      name: 'DecodeError',
      code: 'limit-exceeded',
      message:
        "expected a result nested at most 200 levels deep (this inspector's cap for what the page shows), found deeper: a value or schema of the input nests too deeply to show",
      detail:
        "expected a result nested at most 200 levels deep (this inspector's cap for what the page shows), found deeper: a value or schema of the input nests too deeply to show",
      path: [],
    });
    const cycle: { self?: unknown } = {};
    cycle.self = cycle;
    const failure = toInspectorFailure(thrownBy(() => toPlainData(cycle)));
    expect(failure).toMatchObject({ kind: 'internal', name: 'Error', message: 'toPlainData: the result holds a cycle of plain objects' });
    expect(failure.kind === 'internal' && failure.stack).toContain('to-plain-data');
  });
});

describe('a savepoint by URL: network failures are their own kind; a folder URL without its slash gets a hint', () => {
  let server: Server;
  let origin = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      // a static server: a folder without its '/' redirects to the folder's listing, which ignores Range
      const url = req.url?.replace(/\?.*$/, '');
      if (url === '/listed') return void res.writeHead(301, { Location: '/listed/' }).end();
      if (url === '/listed/') return void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>listing</html>');
      if (url === '/broken.zip') return void res.writeHead(502).end();
      res.writeHead(404).end();
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((ok) => server.close(() => ok())));
  const openUrl = (url: string) => failureOf(() => new LocalInspector().open({ kind: 'url', url, schemaFiles: [] }));

  it('an unreachable server is kind network and names the headers a cross-origin server must send', async () => {
    const detail =
      "expected to reach http://127.0.0.1:1/sp-1/_metadata, found the request failed (fetch failed: bad port): a network error, or a cross-origin request the server does not allow — it must send Access-Control-Allow-Origin (the app's origin, or *) and, for the range reads, Access-Control-Expose-Headers: Content-Range, Content-Length";
    expect(await openUrl('http://127.0.0.1:1/sp-1/')).toEqual({
      kind: 'network',
      name: 'DecodeError',
      code: 'network',
      message: `${detail} — at http://127.0.0.1:1/sp-1/_metadata`,
      detail,
      file: 'http://127.0.0.1:1/sp-1/_metadata',
      path: [],
    });
    expect(await openUrl(`${origin}/broken.zip`)).toMatchObject({
      kind: 'network',
      code: 'network',
      detail: `expected 206 Partial Content for the range probe of ${origin}/broken.zip, found HTTP 502`,
    });
  });

  it('a folder URL without its trailing slash: the 404 (input) and the listing without ranges (network) both say to add the slash', async () => {
    expect(await openUrl(`${origin}/sp-1`)).toMatchObject({
      kind: 'input',
      code: 'missing-file',
      message: `expected ${origin}/sp-1 to exist, found HTTP 404; if it is a savepoint folder, give its URL with a trailing slash: ${origin}/sp-1/ — at sp-1`,
    });
    expect(await openUrl(`${origin}/listed?x=1`)).toMatchObject({
      kind: 'network',
      code: 'network',
      detail: `expected ${origin}/listed?x=1 to answer HTTP Range requests with 206 Partial Content, found 200 OK with the whole file: the server does not support byte ranges (download the file and open it locally); if it is a savepoint folder, give its URL with a trailing slash: ${origin}/listed/?x=1`,
    });
    // a name with an extension is a file: no hint
    expect(await openUrl(`${origin}/sp-1.zip`)).toMatchObject({
      kind: 'input',
      code: 'missing-file',
      detail: `expected ${origin}/sp-1.zip to exist, found HTTP 404`,
    });
  });
});
