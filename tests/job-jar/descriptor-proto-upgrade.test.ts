/**
 * A protobuf-java 3.25 → 4.x upgrade changes the google/protobuf/descriptor.proto it bundles (and its
 * generated DescriptorProtos embed): a job whose schema imports it (a custom option) sees that file
 * change. What each target says, reading both jobs' jars (descriptor.proto from the protobuf-java
 * classes of the shaded fixture jar of the same version, given as --with).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesSource } from '../../src/core/io';
import { extractJobJarSchema } from '../../src/core/jar';
import { compareDescriptorSets } from '../../src/core/report';

const JARS = path.resolve('fixtures/job-jars/jars');
const source = (name: string) => bytesSource(name, new Uint8Array(readFileSync(path.join(JARS, name))));
const RUNTIME_4 = 'shaded-4.36.2.jar';

describe('protobuf-java 3.25.9 → 4.36.2 and a schema importing descriptor.proto', () => {
  it("0.x rejects (descriptor.proto is in the root's import closure); 1.x accepts (none of it is reached)", async () => {
    const old = await extractJobJarSchema(source('options-thin-3.25.9.jar'), [source('shaded-3.25.9.jar')]);
    const next = await extractJobJarSchema(source('options-thin-4.36.2.jar'), [source(RUNTIME_4)]);
    const descriptor = (s: typeof old) => s.files.find((f) => f.name === 'google/protobuf/descriptor.proto')!;
    expect(descriptor(old).outerClass).toBe('com.google.protobuf.DescriptorProtos');
    expect(Buffer.from(descriptor(old).bytes).equals(Buffer.from(descriptor(next).bytes))).toBe(false);
    const own = (s: typeof old) => s.files.find((f) => f.name === 'fixtures/audited.proto')!.bytes;
    expect(Buffer.from(own(old)).equals(Buffer.from(own(next)))).toBe(true);
    const run = (target: '0.x' | '1.x') =>
      compareDescriptorSets({
        saved: { name: 'options-thin-3.25.9.jar', bytes: old.descriptorSet, jar: { files: [] } },
        next: { name: 'options-thin-4.36.2.jar', bytes: next.descriptorSet, jar: { files: [] } },
        roots: [{ savedRoot: 'fixtures.audited.Audited' }],
        tool: { name: 't', version: '0' },
        target,
      }).states[0]!;
    const exact = run('0.x');
    expect(exact.verdict).toBe('incompatible');
    expect(exact.firstIncompatibility?.ruleId).toBe('EXACT_SCHEMA_CHANGED');
    expect(exact.firstIncompatibility?.message).toMatch(/^Normalized descriptor set differs from the saved one \(0\.x accepts only an identical schema\): /);
    const directional = run('1.x');
    expect([directional.verdict, directional.firstIncompatibility]).toEqual(['compatible', null]);
  });
});
