/**
 * The peer serializer flink-protobuf-serde (issue #17, seeds/004): its snapshot class is recognised by its
 * package, the message class found in its bytes by structure (seeds/004 publishes no layout: the test writer lays
 * the class name out with writeUTF, as a serializer parameterised by its class writes it), its values
 * (toByteArray() behind a 4-byte length) decode with the user's schema and are labelled inferred, and `check`
 * names its documented hazard (PEER_SERDE_STATE_NOT_SUPPORTED: state is out of its scope), exit 1.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { INFERRED_SAVED_SET, JAVA_CLASS, writeInferredProtobufSavepoint } from '../helpers/write-inferred-protobuf-savepoint';

const OPERATOR = 'b'.repeat(32);
const PEER_CLASS = 'com.michalklempa.flink.protobuf.ProtoSerializerSnapshot';
let dir = '';
let sp = '';
let schema = '';

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'peer-serde-'));
  sp = path.join(dir, 'savepoint');
  writeInferredProtobufSavepoint(sp, PEER_CLASS, { kind: 'peer-serde', javaClass: JAVA_CLASS });
  schema = path.join(dir, 'schema.binpb');
  await writeFile(schema, INFERRED_SAVED_SET);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('flink-protobuf-serde state', () => {
  it('inspect without a schema: recognised by its class, the hazard named, values not decoded and why', async () => {
    const { code, stdout } = await cli(['inspect', sp]);
    expect(code).toBe(0);
    expect(stdout).toContain(`value     flink-protobuf-serde ProtoSerializer (${JAVA_CLASS}); values not decoded  (${PEER_CLASS})`);
    expect(stdout).toContain(
      "peer      HAZARD: flink-protobuf-serde declares keyed and operator state and schema evolution out of its scope ('Keyed/operator state, schema evolution are out-of-scope of this project. Do not use Protobuf for Flink state.')",
    );
    expect(stdout).toContain(
      `values not decoded: the message class: class names found (${JAVA_CLASS}); give the job's schema (--descriptors or --job-jar) to map it to a message`,
    );
  });

  it('dump with the schema: the values decode, labelled inferred', async () => {
    const { code, stdout } = await cli(['dump', sp, '--operator', OPERATOR, '--state', 'v', '--descriptors', schema]);
    expect(code).toBe(0);
    expect(stdout).toContain('value: {"n":"7"}');
    expect(stdout).toContain('value: {"n":"42","s":"hi"}');
    expect(stdout).toContain(
      'protobuf: p.Val, 6 payload bytes, depth 0, 0 unknown fields (INFERRED: flink-protobuf-serde framing (4-byte length + message bytes) read with schema.binpb)',
    );
  });

  it('check names the documented hazard as a finding and exits 1', async () => {
    const { code, stdout } = await cli(['check', sp, '--descriptors', schema, '--format', 'json']);
    expect(code).toBe(1);
    const state = (
      JSON.parse(stdout) as {
        states: { verdict: string; savedRoot: string; firstIncompatibility: { ruleId: string; message: string }; valuesNotRead: string }[];
      }
    ).states[0]!;
    expect([state.verdict, state.savedRoot, state.firstIncompatibility.ruleId]).toEqual(['not-restorable', 'p.Val', 'PEER_SERDE_STATE_NOT_SUPPORTED']);
    expect(state.firstIncompatibility.message).toBe(
      `${JAVA_CLASS} is written by flink-protobuf-serde's ProtoSerializer (${PEER_CLASS}), whose project declares keyed and operator state and schema evolution out of its scope ('Do not use Protobuf for Flink state'); flink-datastream-protobuf 1.x cannot restore it: the saved snapshot is not the native serializer's, so Flink rejects the restore, and there is no in-place migration (rewrite the state with the State Processor API)`,
    );
    expect(state.valuesNotRead).toBe(
      'values written by flink-protobuf-serde: check does not scan them for value warnings (dump and stats decode them with the schema, in an inferred framing)',
    );
  });

  it('a schema without the message class: the finding still, the values not decodable with the class named', async () => {
    const other = path.join(dir, 'other.binpb');
    // the demo's schema: no message of Java class p.V$Val
    await writeFile(other, await readFile(path.resolve('src/ui/demo-schema/events-changed.binpb')));
    const { code, stdout } = await cli(['check', sp, '--descriptors', other, '--format', 'json']);
    expect(code).toBe(1);
    const state = (JSON.parse(stdout) as { states: { verdict: string; firstIncompatibility: { ruleId: string }; valuesNotRead: string }[] }).states[0]!;
    expect([state.verdict, state.firstIncompatibility.ruleId, state.valuesNotRead]).toEqual([
      'not-restorable',
      'PEER_SERDE_STATE_NOT_SUPPORTED',
      `values written by flink-protobuf-serde: not decodable with this schema (no message whose Java class is ${JAVA_CLASS})`,
    ]);
  });
});
