/** Merges the per-worker statistics of the same states (sums, maxima, examples up to a cap). */
import type { SampleCoverage } from '../../core/flink';
import { mergeTtlTallies, mergeValueSizeTallies } from '../../core/report';
import type { AliasingMemory, ProtobufStateScanSummary, ProtobufValueFinding } from '../../core/protobuf';
import type { StateStats } from './state-stats-types';

const MAX_EXAMPLES = 5;

export function mergeStateStats(parts: readonly (readonly StateStats[])[]): StateStats[] {
  const out = new Map<string, StateStats>();
  for (const list of parts) {
    for (const s of list) {
      const k = `${s.operatorId}\u0000${s.scope}\u0000${s.state}`;
      const have = out.get(k);
      if (!have) {
        out.set(k, structuredClone(s));
        continue;
      }
      if (s.notRead !== undefined) have.notRead ??= s.notRead;
      if (s.partly !== undefined) have.partly ??= s.partly;
      have.entries += s.entries;
      have.valueBytes += s.valueBytes;
      if (s.protobuf) have.protobuf = have.protobuf ? mergeProtobufSummaries(have.protobuf, s.protobuf) : structuredClone(s.protobuf);
      if (s.ttl) have.ttl = have.ttl ? mergeTtlTallies(have.ttl, s.ttl) : { ...s.ttl };
      if (s.valueSizes) have.valueSizes = have.valueSizes ? mergeValueSizeTallies([have.valueSizes, s.valueSizes]) : structuredClone(s.valueSizes);
    }
  }
  return [...out.values()];
}

export function mergeProtobufSummaries(a: ProtobufStateScanSummary, b: ProtobufStateScanSummary): ProtobufStateScanSummary {
  const findings = new Map<string, ProtobufValueFinding>(a.findings.map((f) => [f.check, { ...f, exampleKeys: [...f.exampleKeys] }]));
  for (const f of b.findings) {
    const have = findings.get(f.check);
    if (!have) findings.set(f.check, { ...f, exampleKeys: [...f.exampleKeys] });
    else {
      have.count += f.count;
      have.exampleKeys = [...have.exampleKeys, ...f.exampleKeys].slice(0, MAX_EXAMPLES);
    }
  }
  const sum = (x: AliasingMemory, y: AliasingMemory): AliasingMemory => ({
    retainedArrayBytes: x.retainedArrayBytes + y.retainedArrayBytes,
    copiedBytes: x.copiedBytes + y.copiedBytes,
    extraWireBytes: x.extraWireBytes + y.extraWireBytes,
  });
  return {
    values: a.values + b.values,
    unreadableValues: a.unreadableValues + b.unreadableValues,
    errors: [...a.errors, ...b.errors].slice(0, MAX_EXAMPLES),
    totalPayloadBytes: a.totalPayloadBytes + b.totalPayloadBytes,
    maxPayloadSize: Math.max(a.maxPayloadSize, b.maxPayloadSize),
    maxDepth: Math.max(a.maxDepth, b.maxDepth),
    valuesWithUnknownFields: a.valuesWithUnknownFields + b.valuesWithUnknownFields,
    unknownFields: a.unknownFields + b.unknownFields,
    unknownBytes: a.unknownBytes + b.unknownBytes,
    largeValues: a.largeValues + b.largeValues,
    aliasedValues: a.aliasedValues + b.aliasedValues,
    aliasableFields: a.aliasableFields + b.aliasableFields,
    aliasableBytes: a.aliasableBytes + b.aliasableBytes,
    aliasing: { on: sum(a.aliasing.on, b.aliasing.on), off: sum(a.aliasing.off, b.aliasing.off), thresholdBytes: a.aliasing.thresholdBytes },
    findings: [...findings.values()],
  };
}

export function mergeCoverage(parts: readonly (SampleCoverage | undefined)[]): SampleCoverage | undefined {
  const present = parts.filter((p): p is SampleCoverage => p !== undefined);
  if (present.length === 0) return undefined;
  return {
    sample: present[0]!.sample,
    keyGroupsRead: present.reduce((s, p) => s + p.keyGroupsRead, 0),
    keyGroupsWithData: present.reduce((s, p) => s + p.keyGroupsWithData, 0),
  };
}
