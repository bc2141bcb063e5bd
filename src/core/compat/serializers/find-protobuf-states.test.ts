import { describe, expect, it } from 'vitest';
import type { SavepointInspection, SerializerSnapshot } from '../../flink';
import { findProtobufStates } from './find-protobuf-states';

function snapshot(className: string, nested: SerializerSnapshot[] = []): SerializerSnapshot {
  return { className, version: 1, typeLabel: className, status: nested.length > 0 ? 'opaque' : 'unknown', nested, fixedLength: -1 };
}

function inspection(value: SerializerSnapshot): SavepointInspection {
  return { operators: [{ id: 'ab', states: [{ name: 's', status: 'unknown', valueSerializer: value }] }] } as unknown as SavepointInspection;
}

describe('findProtobufStates', () => {
  it('marks an unknown snapshot of a Protobuf serializer package, nested or not, as Protobuf not checked', () => {
    const direct = findProtobufStates(inspection(snapshot('io.github.flink.gcp.protobuf.ProtobufTypeSerializerSnapshotV2'))).other[0]!;
    expect(direct.uncheckedProtobuf).toBe(true);
    expect(direct.reason).toBe(
      'Protobuf state not checked: io.github.flink.gcp.protobuf.ProtobufTypeSerializerSnapshotV2 is a flink-datastream-protobuf snapshot class this inspector does not know (its layout is not published)',
    );
    const peer = findProtobufStates(
      inspection(
        snapshot('org.apache.flink.api.common.typeutils.base.ListSerializerSnapshot', [snapshot('com.michalklempa.flink.protobuf.ProtoSerializerSnapshot')]),
      ),
    ).other[0]!;
    expect(peer.uncheckedProtobuf).toBe(true);
    expect(peer.reason).toContain('flink-protobuf-serde');
  });

  it('leaves other unknown serializers unknown', () => {
    expect(findProtobufStates(inspection(snapshot('com.example.MysterySnapshot'))).other[0]!.uncheckedProtobuf).toBeUndefined();
  });
});
