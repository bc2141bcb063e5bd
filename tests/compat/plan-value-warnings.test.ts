/**
 * planValueWarnings (the table scan-job's Java collector looks value warnings up in) against the collector it
 * mirrors: on every schema-change fixture case (saved old.binpb → new new.binpb, directional), seeded values with
 * unknown fields of every reached message at every declared, formerly declared and undeclared number and wire
 * type, known fields (bytes or not), and sizes and depths around the new limits are counted by
 * createValueWarningCollector and by a lookup in the plan done as ValueScan.java does it; the two tallies are the
 * same JSON text (buckets in order, parameters in order, counts, largest, example keys). Field numbers above
 * MAX_FIELD_NUMBER are left out: protobuf-java cannot parse such a tag, so the job never sees one.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createValueWarningCollector,
  evaluateStateCompatibility,
  loadDescriptorSet,
  planValueWarnings,
  type SerializerSettings,
  type ValueWarningPlan,
  type ValueWarningTally,
} from '../../src/core/compat';
import type { ScannedValue } from '../../src/core/compat/value-scan-types';
import { requireCommittedCases } from '../helpers/committed-data';

const ROOT = 'fixtures/schema-changes';
const names = existsSync(ROOT) ? readdirSync(ROOT).filter((n) => existsSync(join(ROOT, n, 'expected.json'))) : [];

interface ExpectedCase {
  saved: { root: string; javaClass: string; kind: 'generated' | 'dynamic'; snapshotClass: string; settings: SerializerSettings };
  new: { root: string; kind: 'generated' | 'dynamic'; settings: SerializerSettings };
}

/** ValueScan.Summarizer.add and ShardWriter's buckets (one shard, values in scan order), in TypeScript. */
function applyPlan(plan: ValueWarningPlan, values: readonly ScannedValue[]): ValueWarningTally {
  const buckets = new Map<string, ValueWarningTally['buckets'][number]>();
  for (const v of values) {
    const seen = new Set<string>();
    const hit = (i: number | undefined | null, size: number) => {
      if (i === undefined || i === null) return;
      const w = plan.warnings[i]!;
      if (seen.has(w.key)) return;
      seen.add(w.key);
      const b =
        buckets.get(w.key) ??
        buckets
          .set(w.key, {
            key: w.key,
            ruleId: w.ruleId,
            params: w.params,
            ...(w.location ? { location: w.location } : {}),
            count: 0,
            keys: [],
            largest: 0,
          } as never)
          .get(w.key)!;
      b.count++;
      b.largest = Math.max(b.largest, size);
      if (b.keys.length < plan.maxWarningKeys) b.keys.push(v.key);
    };
    for (const u of v.unknownFields) hit(plan.unknown[`${u.message}|${u.number}|${u.wireType}`], 0);
    if (Object.keys(plan.known).length > 0) for (const k of v.knownFields) hit(plan.known[`${k.message}|${k.number}`], 0);
    if (v.payloadSize > plan.maxMessageSize) hit(plan.size, v.payloadSize);
    if (v.depth > plan.recursionLimit) hit(plan.depth, v.depth);
    if (
      plan.aliasing !== null &&
      v.payloadSize > plan.aliasingThresholdBytes &&
      (v.knownFields.some((k) => k.bytes) || v.unknownFields.some((u) => u.wireType === 2))
    )
      hit(plan.aliasing, v.payloadSize);
  }
  return { buckets: [...buckets.values()] };
}

/** A small seeded generator (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

requireCommittedCases('schema-change case (fixtures/schema-changes/*/expected.json)', names);

describe('planValueWarnings gives the collector’s tallies', () => {
  for (const name of names.sort()) {
    it(name, () => {
      const exp = JSON.parse(readFileSync(join(ROOT, name, 'expected.json'), 'utf8')) as ExpectedCase;
      const load = (f: string) => loadDescriptorSet(new Uint8Array(readFileSync(join(ROOT, name, f))), f).set;
      const compatibility = evaluateStateCompatibility(
        {
          savedSet: load('old.binpb'),
          savedRoot: exp.saved.root,
          savedJavaClass: exp.saved.javaClass,
          savedKind: exp.saved.kind,
          savedSettings: exp.saved.settings,
          snapshotClass: exp.saved.snapshotClass,
          savedLine: '1.x',
        },
        { newSet: load('new.binpb'), newRoot: exp.new.root, newKind: exp.new.kind, newSettings: exp.new.settings, target: '1.x' },
      );
      const schema = compatibility.schema;
      if (schema === undefined) return; // a root missing: check scans no values of it either
      const messages: { name: string; numbers: number[] }[] = [];
      for (const pair of schema.reached) {
        if (pair.saved.kind !== 'message' || pair.next.kind !== 'message') continue;
        const numbers = [...pair.saved.proto.field.map((f) => f.number), ...pair.next.proto.field.map((f) => f.number), 99, 100, 536_870_911];
        messages.push({ name: pair.saved.fullName, numbers });
      }
      expect(messages.length).toBeGreaterThan(0);
      for (const [i, settings] of [
        { ...exp.new.settings },
        { ...exp.new.settings, maxMessageSize: 40, recursionLimit: 2, largePayloadAliasing: true },
        { ...exp.new.settings, maxMessageSize: 5000, recursionLimit: 1, largePayloadAliasing: false },
      ].entries()) {
        const next = random(1000 + i);
        const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
        const values: ScannedValue[] = [];
        for (let v = 0; v < 400; v++) {
          const unknown = new Map<string, ScannedValue['unknownFields'][number]>();
          const known = new Map<string, ScannedValue['knownFields'][number]>();
          for (let n = Math.floor(next() * 4); n > 0; n--) {
            const m = pick(messages);
            const u = { message: m.name, number: pick(m.numbers), wireType: pick([0, 1, 2, 3, 5]) };
            unknown.set(`${u.message}|${u.number}|${u.wireType}`, u);
          }
          for (let n = Math.floor(next() * 4); n > 0; n--) {
            const m = pick(messages);
            const k = { message: m.name, number: pick(m.numbers), wireType: 2, ...(next() < 0.3 ? { bytes: true } : {}) };
            known.set(`${k.message}|${k.number}`, k);
          }
          values.push({
            key: `key-${v}`,
            payloadSize: pick([10, 40, 41, 4096, 4097, 6000]),
            depth: pick([0, 1, 2, 3, 101]),
            unknownFields: [...unknown.values()],
            knownFields: [...known.values()],
          });
        }
        const collector = createValueWarningCollector(schema, settings);
        for (const v of values) collector.add(v);
        const plan = planValueWarnings(schema, settings);
        expect(JSON.stringify(applyPlan(plan, values)), `settings ${i}`).toBe(JSON.stringify(collector.tally()));
      }
    });
  }
});
