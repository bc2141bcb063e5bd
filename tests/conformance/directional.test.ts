/**
 * Directional conformance suite: each case compiles saved.proto and
 * new.proto with buf, evaluates with target 1.x and asserts the verdict, the first incompatibility
 * (rule id and exact message) and the presence/absence of rule ids. The meta-test checks that every
 * structural rule has an accepting and a rejecting case.
 */
import { fromBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, evaluateStateCompatibility, loadDescriptorSet, type StateCompatibility } from '../../src/core/compat';
import { RULES } from '../../src/core/compat/rules/index';
import { buildDescriptorSet, mapLimited, runBufBreakingWire } from './build-descriptor-set';
import { DIRECTIONAL_CASES as STRUCTURE_CASES, IDENTITY_CASES, type DirectionalCase } from './directional-cases';

const DIRECTIONAL_CASES = [...STRUCTURE_CASES, ...IDENTITY_CASES];

const results = new Map<string, StateCompatibility>();
/** each case's two descriptor sets, for the agreement with buf breaking */
const sets = new Map<string, { saved: Uint8Array; next: Uint8Array }>();

async function evaluateCase(c: DirectionalCase): Promise<StateCompatibility> {
  // saved side as generated code embeds it: no source info, no image extension (json_name is dropped by normalization)
  const savedBytes = await buildDescriptorSet(c.saved, { excludeSourceInfo: true, asFileDescriptorSet: true });
  const newBytes = await buildDescriptorSet(c.next);
  sets.set(c.name, { saved: savedBytes, next: newBytes });
  const savedRoot = c.root ?? 'example.Event';
  return evaluateStateCompatibility(
    {
      savedSet: fromBinary(FileDescriptorSetSchema, savedBytes),
      savedRoot,
      savedJavaClass: 'io.example.Events$Event',
      savedKind: 'generated',
      savedSettings: DEFAULT_SETTINGS,
      snapshotClass: 'test.ProtobufSnapshot',
      savedLine: c.savedLine ?? '1.x',
    },
    {
      newSet: loadDescriptorSet(newBytes, 'new.binpb').set,
      newRoot: c.newRoot ?? savedRoot,
      newKind: c.newKind ?? 'generated',
      newJavaClass: c.newJavaClass ?? 'io.example.Events$Event',
      newSettings: { ...DEFAULT_SETTINGS, ...c.newSettings },
      target: c.target ?? '1.x',
    },
  );
}

describe('conformance (buf-built descriptor sets; directional unless a case sets the lines)', () => {
  beforeAll(async () => {
    const evaluated = await mapLimited(DIRECTIONAL_CASES, 2, evaluateCase);
    DIRECTIONAL_CASES.forEach((c, i) => results.set(c.name, evaluated[i]));
  });

  for (const c of DIRECTIONAL_CASES) {
    it(c.name, () => {
      const r = results.get(c.name)!;
      expect(r.verdict).toBe(c.verdict);
      if (c.first) {
        expect({ ruleId: r.firstIncompatibility?.ruleId, message: r.firstIncompatibility?.message }).toEqual(c.first);
      } else {
        expect(r.firstIncompatibility).toBeUndefined();
      }
      for (const h of c.has ?? []) {
        expect(
          r.findings.some((f) => f.ruleId === h.ruleId && f.accepted === h.accepted),
          `finding ${h.ruleId} (${h.accepted ? 'accepted' : 'rejected'})`,
        ).toBe(true);
      }
      for (const id of c.lacks ?? []) expect(r.findings.map((f) => f.ruleId)).not.toContain(id);
      if (c.noFindings) expect(r.findings).toEqual([]);
    });
  }

  it('the serializer example prints the Flink-style restore failure', () => {
    const r = results.get('int32 to sint32 (the serializer example)')!;
    expect(r.failureText).toBe(
      "Cannot restore Protobuf serializer for io.example.Events$Event (example.Event): supply a supported generated class that can read the saved schema through Flink's user-code classloader. Cause: Generated class cannot read the saved Protobuf schema: Field 2 (count) of example.Event changes type from INT32 to SINT32",
    );
  });
});

describe('agreement with buf breaking (WIRE rules): no wire break is ever accepted', () => {
  it('buf breaking finds no wire break in the reached declarations of any case judged compatible', async () => {
    const compatible = DIRECTIONAL_CASES.filter((c) => results.get(c.name)?.verdict === 'compatible');
    expect(compatible.length).toBeGreaterThan(10);
    const breaks = await mapLimited(compatible, 2, async (c) => {
      const reached = new Set((results.get(c.name)!.schema?.reached ?? []).map((p) => p.saved.fullName));
      const found = await runBufBreakingWire(sets.get(c.name)!.saved, sets.get(c.name)!.next);
      // buf names declarations relative to their package (`message "Event"`, `enum "Event.Kind"`)
      return found
        .filter((f) =>
          [...reached].some((full) => [full, full.slice(full.indexOf('.') + 1)].some((n) => f.includes(`message "${n}"`) || f.includes(`enum "${n}"`))),
        )
        .map((f) => `${c.name}: ${f}`);
    });
    expect(breaks.flat()).toEqual([]);
  });

  it('sees the wire breaks of a rejected case (the check above can fail)', async () => {
    const { saved, next } = sets.get('int32 to sint32 (the serializer example)')!;
    expect(await runBufBreakingWire(saved, next)).toEqual([expect.stringContaining('on message "Event" changed type from "int32" to "sint32"')]);
  });
});

/**
 * The Kryo rules decide on the saved serializer (a KryoSerializerSnapshot), not on a pair of schemas, so no
 * schema case can reach them: tests/compat/check-kryo-protobuf.test.ts holds their rejecting cases (real Kryo
 * savepoints of Flink 1.20 and 2.3) and their accepting one (native Protobuf state: no Kryo rule). The same holds
 * for the peer serializer's rule: tests/protobuf/peer-serde-protobuf.test.ts. JOB_JAR_DESCRIPTOR_CONFLICT decides on what
 * a job jar embeds (one file in two versions): tests/job-jar/two-runtimes-job-jar.test.ts holds its rejecting case (a
 * reached file) and its accepting one (a conflict no state's root reaches).
 */
const SERIALIZER_RULES: readonly string[] = [
  'KRYO_PROTOBUF_NOT_RESTORABLE',
  'KRYO_PLAIN_PROTOBUF_HAZARD',
  'PEER_SERDE_STATE_NOT_SUPPORTED',
  'JOB_JAR_DESCRIPTOR_CONFLICT',
];

describe('rule registry meta-test', () => {
  const decided = RULES.filter((r) => r.outcome !== 'warning' && !SERIALIZER_RULES.includes(r.id));
  for (const rule of decided) {
    it(`${rule.id} has an accepting and a rejecting conformance case`, () => {
      const cases = DIRECTIONAL_CASES.filter((c) => c.covers.includes(rule.id));
      expect(
        cases.some((c) => c.verdict === 'compatible'),
        'accepting case',
      ).toBe(true);
      expect(
        cases.some((c) => c.verdict !== 'compatible'),
        'rejecting case',
      ).toBe(true);
    });
  }
  it('every registry entry has a unique id and a template', () => {
    expect(new Set(RULES.map((r) => r.id)).size).toBe(RULES.length);
    for (const r of RULES) expect(r.template.length).toBeGreaterThan(0);
  });
});
