/**
 * The container recipe (Dockerfile, .dockerignore) against its rules, without a container engine: a base image pinned to a full version of a small variant, the package installed from
 * the `npm pack` tarball of package.json's version (and nothing else in the build context), a non-root user
 * from the install on, `ENTRYPOINT ["savepoint-inspector"]`. tests/cli-bundle/npm-package.test.ts runs the
 * recipe's install step on the packed tarball, and builds and runs the image where podman is installed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireCommitted } from '../helpers/committed-data';
import { expandArgs, parseDockerfile } from '../helpers/parse-dockerfile';

const ROOT = process.cwd();
const instructions = parseDockerfile(readFileSync(requireCommitted(path.join(ROOT, 'Dockerfile')), 'utf8'));
const packageJson = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; engines: { node: string } };
const tarball = `${packageJson.name}-${packageJson.version}.tgz`;
const at = (keyword: string): number => instructions.findIndex((i) => i.keyword === keyword);

describe('Dockerfile', () => {
  it('starts from a small Node image pinned to a full version that package.json "engines" admits', () => {
    expect(instructions[0]!.keyword).toBe('FROM');
    const m = /^node:(\d+)\.(\d+)\.(\d+)-(bookworm-slim|alpine\d+\.\d+)$/.exec(instructions[0]!.args);
    expect(m, instructions[0]!.args).not.toBeNull();
    const [min, minMinor] = /^>=(\d+)\.(\d+)$/.exec(packageJson.engines.node)!.slice(1).map(Number) as [number, number];
    const [major, minor] = [Number(m![1]), Number(m![2])];
    expect(major > min || (major === min && minor >= minMinor)).toBe(true);
    expect(instructions.filter((i) => i.keyword === 'FROM')).toHaveLength(1);
  });

  it("installs the package's own tarball, of package.json's version, and sends nothing else as context", () => {
    const copy = instructions.filter((i) => i.keyword === 'COPY').map((i) => expandArgs(instructions, i.args));
    expect(copy).toEqual([`${tarball} /tmp/`]);
    const install = instructions.filter((i) => i.keyword === 'RUN').map((i) => expandArgs(instructions, i.args));
    expect(install).toHaveLength(1);
    expect(install[0]).toMatch(
      new RegExp(`^npm install --global --offline .*/tmp/${tarball.replace(/\./g, '\\.')} && rm /tmp/${tarball.replace(/\./g, '\\.')}`),
    );
    const ignore = readFileSync(requireCommitted(path.join(ROOT, '.dockerignore')), 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    expect(ignore).toEqual(['*', '!savepoint-inspector-*.tgz']);
  });

  it('runs as a non-root user from the install on, with savepoint-inspector as the entry point', () => {
    const user = instructions.filter((i) => i.keyword === 'USER');
    expect(user).toHaveLength(1);
    expect(user[0]!.args).not.toMatch(/^(root|0)(:|$)/);
    expect(at('USER')).toBeGreaterThan(at('RUN'));
    expect(at('USER')).toBeLessThan(at('ENTRYPOINT'));
    expect(JSON.parse(instructions[at('ENTRYPOINT')]!.args)).toEqual(['savepoint-inspector']);
  });
});
