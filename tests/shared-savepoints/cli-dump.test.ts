/**
 * `dump` run in-process over a real Flink savepoint in ../shared/flink-savepoints (no Protobuf
 * state: the generic value formatting). Skipped, and counted at the end of the run, when that folder
 * is absent.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { NEEDS_SHARED, sharedSavepoint } from '../helpers/shared-savepoints';

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

const SHARED = sharedSavepoint('new-stateful-udf-migration-itcase-flink1.20-hashmap-savepoint');

describe('dump over a real Flink savepoint without Protobuf state', NEEDS_SHARED, () => {
  it('prints keyed values and timers with the generic value formatting', async () => {
    const values = await run('dump', SHARED, '--operator', 'd5c8b168c6cbfe8c507a10f88b325243', '--state', 'state-name', '--limit', '1');
    expect(values.code).toBe(0);
    expect(values.stdout).toBe(
      'operator d5c8b168c6cbfe8c507a10f88b325243, state state-name\n#1  subtask 1  key group 1  key (3)  namespace VoidNamespace\n  value: 3\n1 entry\n',
    );
    const timers = await run('dump', SHARED, '--operator', '41e91aae0bee218c44306cf7d21940ad', '--state', '_timer_state/event_timer', '--limit', '1');
    expect(timers.stdout.split('\n')[2]).toBe('  value: timer @-9223372036854775798 key (3) namespace 3');
  });
});
