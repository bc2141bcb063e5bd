import { describe, expect, it } from 'vitest';
import { evaluateKryoProtobufState } from './evaluate-kryo-protobuf-state';
import { CHILL_PROTOBUF_SERIALIZER } from '../serializers/recognize-kryo-protobuf';

const JAVA_CLASS = 'fixtures.events.EventOuterClass$Event';

describe('evaluateKryoProtobufState', () => {
  for (const target of ['0.x', '1.x'] as const) {
    it(`chill-protobuf (target ${target}): not-restorable, rule set none, KRYO_PROTOBUF_NOT_RESTORABLE first`, () => {
      const how = `${JAVA_CLASS} registered with ${CHILL_PROTOBUF_SERIALIZER} (CLASS)`;
      const c = evaluateKryoProtobufState(
        JAVA_CLASS,
        { kind: 'chill', how, serializerClass: CHILL_PROTOBUF_SERIALIZER, messageType: 'fixtures.events.Event' },
        target,
        undefined,
      );
      expect(c.verdict).toBe('not-restorable');
      expect(c.ruleSet).toBe('none');
      expect(c.target).toBe(target);
      expect(c.savedRoot).toBe('fixtures.events.Event');
      expect(c.newRoot).toBe('fixtures.events.Event');
      expect(c.savedJavaClass).toBe(JAVA_CLASS);
      expect(c.findings.map((f) => f.ruleId)).toEqual(['KRYO_PROTOBUF_NOT_RESTORABLE']);
      expect(c.firstIncompatibility).toBe(c.findings[0]);
      expect(c.failureText).toMatch(/^StateMigrationException: /);
    });

    it(`plain Kryo on a Protobuf class (target ${target}): not-restorable (never incompatible), KRYO_PLAIN_PROTOBUF_HAZARD first`, () => {
      const how = `no Kryo serializer is registered or defaulted for ${JAVA_CLASS}`;
      const c = evaluateKryoProtobufState(JAVA_CLASS, { kind: 'plain', how, messageType: 'fixtures.events.Event' }, target, 'fixtures.events.EventV2');
      expect(c.verdict).toBe('not-restorable');
      expect(c.ruleSet).toBe('none');
      expect(c.savedRoot).toBe('fixtures.events.Event');
      expect(c.newRoot).toBe('fixtures.events.EventV2');
      expect(c.findings.map((f) => f.ruleId)).toEqual(['KRYO_PLAIN_PROTOBUF_HAZARD']);
      expect(c.firstIncompatibility).toBe(c.findings[0]);
      expect(c.firstIncompatibility!.message).toContain(how);
    });
  }

  it('a chill state whose class is not in the descriptor set keeps the Java class as its root', () => {
    const c = evaluateKryoProtobufState(JAVA_CLASS, { kind: 'chill', how: 'x', serializerClass: CHILL_PROTOBUF_SERIALIZER }, '1.x', undefined);
    expect(c.verdict).toBe('not-restorable');
    expect(c.savedRoot).toBe(JAVA_CLASS);
    expect(c.newRoot).toBe(JAVA_CLASS);
  });
});
