/**
 * openNodeInput over the real savepoints in ../shared/flink-savepoints: folders, lone `_metadata`
 * files, a parent of several savepoints, zips and tars built from them, a folder missing a state file.
 * Skipped, and counted at the end of the run, when that folder is absent.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync, type Zippable } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNodeInput } from '../../src/cli/sources/open-node-input';
import { describeAbsentFile, detectInputKind, readAll, type SavepointFiles } from '../../src/core/io';
import { NEEDS_SHARED, SHARED_SAVEPOINTS as SHARED } from '../helpers/shared-savepoints';

const FOLDERS = [
  'new-stateful-udf-migration-itcase-flink1.20-hashmap-savepoint',
  'new-stateful-udf-migration-itcase-flink1.20-rocksdb-savepoint',
  'new-stateful-broadcast-udf-migration-itcase-flink1.20-hashmap-savepoint',
  'new-stateful-udf-migration-itcase-flink2.0-rocksdb-savepoint',
];

/** name → bytes of every file in a folder (flat: savepoint folders have no subfolders) */
function folderFiles(dir: string): Map<string, Uint8Array> {
  return new Map(readdirSync(dir).map((n) => [n, new Uint8Array(readFileSync(join(dir, n)))]));
}

async function expectSameFiles(sp: SavepointFiles, expected: Map<string, Uint8Array>): Promise<void> {
  expect(sp.files).toHaveLength(expected.size);
  expect((await detectInputKind(sp.metadata)).kind).toBe('flink-metadata');
  expect(await readAll(sp.metadata)).toEqual(expected.get('_metadata'));
  for (const [name, bytes] of expected) {
    if (name === '_metadata') continue;
    const src = sp.resolveRelative(name);
    expect(src?.size, name).toBe(bytes.length);
    expect(await readAll(src!)).toEqual(bytes);
  }
}

describe('openNodeInput over the real savepoints in ../shared/flink-savepoints', NEEDS_SHARED, () => {
  let tmp = '';
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'sp-io-'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it.each(FOLDERS)('folder %s: _metadata located, every state file resolves next to it', async (folder) => {
    const dir = join(SHARED, folder);
    const sp = await openNodeInput(dir);
    expect(sp.metadata.name).toBe(`${folder}/_metadata`);
    expect(sp.warnings).toEqual([]);
    await expectSameFiles(sp, folderFiles(dir));
  });

  it.each(['operatorstate/complexKeyed-flink1.20', 'operatorstate/nonKeyed-flink1.20'])(
    'single self-contained _metadata %s (as file and as folder)',
    async (folder) => {
      const path = join(SHARED, folder, '_metadata');
      const single = await openNodeInput(path);
      expect(single.metadata.size).toBe(statSync(path).size);
      expect((await detectInputKind(single.metadata)).kind).toBe('flink-metadata');
      const viaFolder = await openNodeInput(join(SHARED, folder));
      expect(viaFolder.files.map((f) => f.name)).toEqual([`${folder.split('/')[1]}/_metadata`]);
    },
  );

  it('the parent folder of several savepoints is refused, listing them; --metadata names one', async () => {
    await expect(openNodeInput(join(SHARED, 'operatorstate'))).rejects.toThrow(
      `expected one savepoint in ${join(SHARED, 'operatorstate')}, found 2 _metadata files: 'complexKeyed-flink1.20/_metadata', 'nonKeyed-flink1.20/_metadata'; name the one to read`,
    );
    const sp = await openNodeInput(join(SHARED, 'operatorstate'), { metadataPath: 'nonKeyed-flink1.20' });
    expect(sp.metadata.name).toBe('operatorstate/nonKeyed-flink1.20/_metadata');
    expect(sp.warnings).toEqual([`1 file of ${join(SHARED, 'operatorstate')} outside the _metadata folder 'nonKeyed-flink1.20' is ignored`]);
  });

  it.each(FOLDERS)('zip of %s built in a temp dir (nested folder, stored + deflated entries)', async (folder) => {
    const files = folderFiles(join(SHARED, folder));
    const zippable: Zippable = {};
    let i = 0;
    for (const [name, bytes] of files) zippable[`export/${folder}/${name}`] = [bytes, { level: i++ % 2 === 0 ? 0 : 6 }];
    const zipPath = join(tmp, `${folder}.zip`);
    writeFileSync(zipPath, zipSync(zippable));
    const sp = await openNodeInput(zipPath);
    expect(sp.metadata.name).toBe(`${zipPath}!/export/${folder}/_metadata`);
    await expectSameFiles(sp, files);
  });

  it.each(['tar', 'tar.gz'])('%s of a savepoint built with the system tar', async (ext) => {
    const folder = FOLDERS[3]!;
    const out = join(tmp, `sp.${ext}`);
    execFileSync('tar', [ext === 'tar' ? '-cf' : '-czf', out, '-C', SHARED, folder]);
    const sp = await openNodeInput(out);
    expect(sp.metadata.name).toBe(`${out}!/${folder}/_metadata`);
    await expectSameFiles(sp, folderFiles(join(SHARED, folder)));
  });

  it('a folder missing a state file: the file is reported by name', async () => {
    const folder = FOLDERS[0]!;
    const copy = join(tmp, 'incomplete');
    cpSync(join(SHARED, folder), copy, { recursive: true });
    const victim = readdirSync(copy).find((n) => n !== '_metadata')!;
    unlinkSync(join(copy, victim));
    const sp = await openNodeInput(copy);
    expect(sp.resolveRelative(victim)).toBeUndefined();
    expect(describeAbsentFile(sp, victim)).toBe('no such file: the savepoint is incomplete (copy the whole folder)');
  });
});
