/**
 * Odd kinds of input in every path argument of every command: a FIFO nobody writes to,
 * /dev/zero, /dev/urandom, /dev/null, a link to a device, a directory, a socket, an empty file
 * and a sparse file of 2.2 GB. Each must end at once in exit 2 with a message naming the path (or,
 * for the sparse descriptor set, its size and the limit): nothing may wait for a writer, read an
 * endless device, or load gigabytes.
 */
import { cpSync, mkdirSync, readdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeSummary, FIXTURE_SAVEPOINT, FIXTURE_SCHEMA, makeScratchDir, runFuzzCases, type FuzzCase } from './fuzz-workspace';
import { REPO_ROOT } from './list-robustness-inputs';
import { judgeBadInputRun, judgeNoInternalError } from './run-cli-cases';

const OLD_SCHEMA = path.join(REPO_ROOT, 'fixtures/schema-changes/field-renamed/old.binpb');
const ROOT = 'fixtures.change.Order';

describe('fuzz: odd kinds of input paths', () => {
  it('FIFOs, devices, directories, sockets, empty and 2.2 GB sparse files end at once in exit 2 naming the path', async () => {
    const scratch = makeScratchDir('kinds');
    let socketServer: Server | undefined;
    try {
      const at = (name: string) => path.join(scratch.dir, name);
      execFileSync('mkfifo', [at('fifo')]);
      symlinkSync('/dev/zero', at('zero-link'));
      mkdirSync(at('folder'));
      writeFileSync(at('empty'), new Uint8Array(0));
      writeFileSync(at('sparse.binpb'), new Uint8Array(0));
      truncateSync(at('sparse.binpb'), 2_200_000_000);
      socketServer = createServer();
      await new Promise<void>((resolve) => socketServer!.listen(at('socket'), resolve));
      const odd = [at('fifo'), '/dev/zero', '/dev/urandom', '/dev/null', at('zero-link'), at('socket')];
      const cases: FuzzCase[] = [];
      const push = (name: string, argv: string[], where: RegExp) =>
        cases.push({ name, prepare: () => argv, judge: (run) => judgeBadInputRun(run, where), boundMs: 10_000 });
      // the path, or (descriptor-set errors name the file as the report does) its base name
      const named = (p: string) => new RegExp(path.basename(p).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
      for (const p of [...odd, at('empty')]) {
        push(`inspect ${p}`, ['inspect', p], named(p));
        push(`stats ${p}`, ['stats', p, '--workers', '2'], named(p));
        push(`dump ${p}`, ['dump', p, '--operator', 'x', '--state', 'y'], named(p));
        push(`check ${p} as the savepoint`, ['check', p, '--descriptors', FIXTURE_SCHEMA], named(p));
        push(`check --descriptors ${p}`, ['check', FIXTURE_SAVEPOINT, '--descriptors', p], named(p));
        push(`compare ${p} as the new set`, ['compare', p, '--against', OLD_SCHEMA, '--root', ROOT], named(p));
        push(`compare --against ${p}`, ['compare', OLD_SCHEMA, '--against', p, '--root', ROOT], named(p));
      }
      push('check --descriptors <a directory>', ['check', FIXTURE_SAVEPOINT, '--descriptors', at('folder')], named(at('folder')));
      const limit = /at most 67108864 bytes .*found a file of 2200000000 bytes — at .*sparse\.binpb, offset 0/;
      push('check --descriptors <2.2 GB sparse file>', ['check', FIXTURE_SAVEPOINT, '--descriptors', at('sparse.binpb')], limit);
      push('compare <2.2 GB sparse file>', ['compare', at('sparse.binpb'), '--against', OLD_SCHEMA, '--root', ROOT], limit);
      push('compare --against <2.2 GB sparse file>', ['compare', OLD_SCHEMA, '--against', at('sparse.binpb'), '--root', ROOT], limit);
      push('inspect <2.2 GB sparse file>', ['inspect', at('sparse.binpb')], named(at('sparse.binpb')));
      const summary = await runFuzzCases(cases);
      console.log(describeSummary('input-kind fuzz', summary));
      expect(summary.failures).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => (socketServer ? socketServer.close(() => resolve()) : resolve()));
      scratch.remove();
    }
  });

  it('savepoint folders whose _metadata or state files are not regular files say what they are', async () => {
    const scratch = makeScratchDir('folder-kinds');
    try {
      const at = (name: string) => path.join(scratch.dir, name);
      /** a copy of the fixture savepoint folder whose entry `name` is replaced by `make(path)` */
      const copyWith = (folder: string, name: string, make: (p: string) => void): string => {
        cpSync(FIXTURE_SAVEPOINT, at(folder), { recursive: true });
        rmSync(path.join(at(folder), name));
        make(path.join(at(folder), name));
        return at(folder);
      };
      const stateFile = readdirSync(FIXTURE_SAVEPOINT).find((n) => n !== '_metadata')!;
      const cases: FuzzCase[] = [];
      const expectRefusal = (name: string, folder: string, message: RegExp) =>
        cases.push({
          name,
          prepare: () => ['inspect', folder],
          judge: (run) => judgeBadInputRun(run) ?? (message.test(run.stderr) ? undefined : `says: ${run.stderr.slice(0, 300)}`),
          boundMs: 10_000,
        });
      expectRefusal(
        '_metadata is a FIFO',
        copyWith('fifo-metadata', '_metadata', (p) => execFileSync('mkfifo', [p])),
        /expected the savepoint's _metadata to be a regular file, found a FIFO \(named pipe\): '_metadata' in /,
      );
      expectRefusal(
        '_metadata is a folder',
        copyWith('folder-metadata', '_metadata', (p) => mkdirSync(p)),
        /expected the savepoint's _metadata to be a regular file, found a folder: '_metadata' in /,
      );
      expectRefusal(
        '_metadata links to /dev/zero',
        copyWith('device-metadata', '_metadata', (p) => symlinkSync('/dev/zero', p)),
        /found a symbolic link to a character device: '_metadata'/,
      );
      let deep = at('deep');
      for (let i = 0; i < 40; i++) deep = path.join(deep, 'd');
      mkdirSync(deep, { recursive: true });
      cpSync(FIXTURE_SAVEPOINT, deep, { recursive: true });
      expectRefusal('a savepoint 40 folders deep', at('deep'), /found no files; 1 folder lies deeper than the walk goes and was not read \('d\/d\/d/);
      // a state file that is a FIFO: the savepoint opens, and that file is named as what it is (exit 0 or 1, not a wait)
      const fifoState = copyWith('fifo-state', stateFile, (p) => execFileSync('mkfifo', [p]));
      cases.push({
        name: 'a state file is a FIFO',
        prepare: () => ['inspect', fifoState],
        judge: (run) =>
          judgeNoInternalError(run) ??
          (run.stdout.includes(`expected state file "${stateFile}" next to _metadata in ${fifoState}, found a FIFO (named pipe), not a regular file — at `)
            ? undefined
            : `says: ${run.stdout.slice(0, 400)}`),
        boundMs: 10_000,
      });
      // a link to a regular file is that file
      const linked = copyWith('linked-state', stateFile, (p) => symlinkSync(path.join(FIXTURE_SAVEPOINT, stateFile), p));
      cases.push({
        name: 'a state file is a link to a regular file',
        prepare: () => ['inspect', '--strict', linked],
        judge: (run) => (run.code === 0 ? undefined : `exit ${run.code}: ${run.stderr.slice(0, 300)}${run.stdout.slice(0, 300)}`),
        boundMs: 10_000,
      });
      const summary = await runFuzzCases(cases);
      console.log(describeSummary('savepoint-folder kinds', summary));
      expect(summary.failures).toEqual([]);
    } finally {
      scratch.remove();
    }
  });
});
