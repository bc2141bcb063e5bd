/**
 * The inputs the mutation suite mutates, read from disk once: every committed savepoint
 * (fixtures/savepoints/**: folders and zips), the shared real savepoints (../shared/flink-savepoints,
 * skipped with a note when absent), the serializer-snapshot fixtures and the schema-change
 * descriptor sets (with the root each declares, from expected.json).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { SHARED_SAVEPOINTS, sharedSavepointsExist } from '../helpers/shared-savepoints';
import type { NamedBytes } from './run-decode-pipelines';

export { SHARED_SAVEPOINTS, sharedSavepointsExist };
export const REPO_ROOT = process.cwd();

export interface SavepointFolderInput {
  kind: 'folder';
  name: string;
  files: NamedBytes[];
}
export interface SavepointArchiveInput {
  kind: 'archive';
  name: string;
  file: NamedBytes;
}
export interface SnapshotInput {
  name: string;
  file: NamedBytes;
}
export interface DescriptorSetInput {
  name: string;
  file: NamedBytes;
  root: string;
  partner: NamedBytes;
  partnerRoot: string;
}

function walkFiles(dir: string, rel = ''): NamedBytes[] {
  const out: NamedBytes[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    const r = rel === '' ? name : `${rel}/${name}`;
    if (statSync(full).isDirectory()) out.push(...walkFiles(full, r));
    else out.push({ path: r, bytes: new Uint8Array(readFileSync(full)) });
  }
  return out;
}

/** Folders holding a `_metadata` file directly, below `root`, sorted. */
function findSavepointFolders(root: string): string[] {
  if (!existsSync(root)) return [];
  const out: string[] = [];
  const walk = (dir: string) => {
    const names = readdirSync(dir).sort();
    if (names.includes('_metadata')) out.push(dir);
    for (const n of names) if (statSync(path.join(dir, n)).isDirectory()) walk(path.join(dir, n));
  };
  walk(root);
  return out;
}

function findArchives(root: string): string[] {
  if (!existsSync(root)) return [];
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const n of readdirSync(dir).sort()) {
      const full = path.join(dir, n);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(zip|tar|tar\.gz|tgz)$/.test(n)) out.push(full);
    }
  };
  walk(root);
  return out;
}

export function listSavepointInputs(): (SavepointFolderInput | SavepointArchiveInput)[] {
  const fixtures = path.join(REPO_ROOT, 'fixtures/savepoints');
  const folders = [...findSavepointFolders(fixtures), ...findSavepointFolders(SHARED_SAVEPOINTS)];
  const inputs: (SavepointFolderInput | SavepointArchiveInput)[] = folders.map((dir) => {
    // named relative to the repository or to ../shared, never by the checkout's own folder name: the name seeds the sampled mutations
    const name =
      dir.startsWith(`${SHARED_SAVEPOINTS}${path.sep}`) || dir === SHARED_SAVEPOINTS
        ? `shared/flink-savepoints/${path.relative(SHARED_SAVEPOINTS, dir)}`
        : path.relative(REPO_ROOT, dir);
    return { kind: 'folder', name, files: walkFiles(dir).map((f) => ({ path: `${path.basename(dir)}/${f.path}`, bytes: f.bytes })) };
  });
  for (const archive of findArchives(fixtures)) {
    const name = path.relative(REPO_ROOT, archive);
    inputs.push({ kind: 'archive', name, file: { path: name, bytes: new Uint8Array(readFileSync(archive)) } });
  }
  return inputs;
}

export function listSnapshotInputs(): SnapshotInput[] {
  const file = path.join(REPO_ROOT, 'fixtures/snapshots/protobuf-0.1.0-snapshots.json');
  if (!existsSync(file)) return [];
  const doc = JSON.parse(readFileSync(file, 'utf8')) as { snapshots: { name: string; hex: string }[] };
  return doc.snapshots.map((s) => ({ name: `snapshot ${s.name}`, file: { path: `${s.name}.snapshot`, bytes: Uint8Array.from(Buffer.from(s.hex, 'hex')) } }));
}

export function listDescriptorSetInputs(): DescriptorSetInput[] {
  const root = path.join(REPO_ROOT, 'fixtures/schema-changes');
  if (!existsSync(root)) return [];
  const out: DescriptorSetInput[] = [];
  for (const name of readdirSync(root).sort()) {
    const expectedFile = path.join(root, name, 'expected.json');
    if (!existsSync(expectedFile)) continue;
    const exp = JSON.parse(readFileSync(expectedFile, 'utf8')) as {
      saved: { descriptorSet: string; root: string };
      new: { descriptorSet: string; root: string };
    };
    const read = (f: string): NamedBytes => ({ path: `${name}/${f}`, bytes: new Uint8Array(readFileSync(path.join(root, name, f))) });
    const saved = read(exp.saved.descriptorSet);
    const next = read(exp.new.descriptorSet);
    out.push({ name: `descriptor set ${name}/${exp.new.descriptorSet}`, file: next, root: exp.new.root, partner: saved, partnerRoot: exp.saved.root });
  }
  return out;
}
