/**
 * The job's jar as the schema of Kryo-held Protobuf (issue #17): `inspect`, `dump` and `stats` take `--job-jar`
 * as `check` does (the descriptors the jar's generated classes embed), map the Kryo-held class to its message and
 * decode the values of a real Flink 2.3 Kryo savepoint; `--job-jar` with `--descriptors` is a usage error.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';

const SAVEPOINT = path.resolve(process.cwd(), 'fixtures/kryo-savepoints/flink-2.3/hashmap/kryo-registered/savepoint');
const JAR = path.resolve(process.cwd(), 'fixtures/job-jars/jars/thin-4.36.2.jar');

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

describe('--job-jar for Kryo-held Protobuf', () => {
  it('inspect maps the Kryo-held class to its message', async () => {
    const { code, stdout } = await cli(['inspect', SAVEPOINT, '--headers-only', '--job-jar', JAR]);
    expect(code).toBe(0);
    expect(stdout).toContain(
      'value     Protobuf fixtures.events.Event via Kryo (chill-protobuf)  (org.apache.flink.api.java.typeutils.runtime.kryo.KryoSerializerSnapshot)',
    );
  });

  it('dump decodes the values', async () => {
    const { code, stdout } = await cli(['dump', SAVEPOINT, '--operator', 'kryo-keyed', '--state', 'last-event', '--limit', '1', '--job-jar', JAR]);
    expect(code).toBe(0);
    expect(stdout).toContain('value: {"id":"7","name":"event-7","kind":"UPDATED"');
    expect(stdout).toContain('protobuf: fixtures.events.Event, 50 payload bytes');
  });

  it('stats scans them', async () => {
    const { code, stdout } = await cli(['stats', SAVEPOINT, '--workers', '1', '--format', 'json', '--job-jar', JAR]);
    expect(code).toBe(0);
    const states = (JSON.parse(stdout) as { states: { state: string; protobuf?: { values: number } | null }[] }).states;
    expect(states.find((s) => s.state === 'last-event')?.protobuf?.values).toBe(3);
  });

  it('--job-jar with --descriptors is a usage error', async () => {
    const { code, stderr } = await cli(['dump', SAVEPOINT, '--operator', 'kryo-keyed', '--state', 'last-event', '--job-jar', JAR, '--descriptors', JAR]);
    expect(code).toBe(2);
    expect(stderr).toContain('give either --job-jar or --descriptors, not both');
  });
});
