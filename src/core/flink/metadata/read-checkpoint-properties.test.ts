import { describe, expect, it } from 'vitest';
import { decodeErrorOf } from '../../../../tests/helpers/decode-error-of';
import { readCheckpointProperties, scanCheckpointProperties } from './read-checkpoint-properties';

// Written by java.io.ObjectOutputStream (Java 17) for stand-in classes with Flink's class and field
// names: CheckpointProperties{checkpointType = CheckpointType("Full Checkpoint", NO_SHARING), 7 booleans}.
const FULL_CHECKPOINT =
  'aced0005737200386f72672e6170616368652e666c696e6b2e72756e74696d652e636865636b706f696e742e436865636b706f696e7450726f7065727469657300000000000000020200085a00106469736361726443616e63656c6c65645a000d646973636172644661696c65645a000f6469736361726446696e69736865645a000f6469736361726453756273756d65645a00106469736361726453757370656e6465645a0006666f726365645a0009756e636c61696d65644c000e636865636b706f696e74547970657400324c6f72672f6170616368652f666c696e6b2f72756e74696d652f636865636b706f696e742f536e617073686f74547970653b787001010101010000737200326f72672e6170616368652e666c696e6b2e72756e74696d652e636865636b706f696e742e436865636b706f696e745479706500000000000000010200024c00046e616d657400124c6a6176612f6c616e672f537472696e673b4c001473686172696e6746696c657353747261746567797400494c6f72672f6170616368652f666c696e6b2f72756e74696d652f636865636b706f696e742f436865636b706f696e74547970652453686172696e6746696c657353747261746567793b787074000f46756c6c20436865636b706f696e747e7200476f72672e6170616368652e666c696e6b2e72756e74696d652e636865636b706f696e742e436865636b706f696e74547970652453686172696e6746696c6573537472617465677900000000000000001200007872000e6a6176612e6c616e672e456e756d0000000000000000120000787074000a4e4f5f53484152494e47';
// The same with a CheckpointType that has a writeObject method (flag SC_WRITE_METHOD) appending an int and a string.
const CHECKPOINT_WITH_WRITE_METHOD =
  'aced0005737200386f72672e6170616368652e666c696e6b2e72756e74696d652e636865636b706f696e742e436865636b706f696e7450726f7065727469657300000000000000020200085a00106469736361726443616e63656c6c65645a000d646973636172644661696c65645a000f6469736361726446696e69736865645a000f6469736361726453756273756d65645a00106469736361726453757370656e6465645a0006666f726365645a0009756e636c61696d65644c000e636865636b706f696e74547970657400324c6f72672f6170616368652f666c696e6b2f72756e74696d652f636865636b706f696e742f536e617073686f74547970653b787001010101010000737200326f72672e6170616368652e666c696e6b2e72756e74696d652e636865636b706f696e742e436865636b706f696e745479706500000000000000010300024c00046e616d657400124c6a6176612f6c616e672f537472696e673b4c001473686172696e6746696c657353747261746567797400494c6f72672f6170616368652f666c696e6b2f72756e74696d652f636865636b706f696e742f436865636b706f696e74547970652453686172696e6746696c657353747261746567793b787074000a436865636b706f696e747e7200476f72672e6170616368652e666c696e6b2e72756e74696d652e636865636b706f696e742e436865636b706f696e74547970652453686172696e6746696c6573537472617465677900000000000000001200007872000e6a6176612e6c616e672e456e756d00000000000000001200007870740010464f52574152445f4241434b5741524477040000002a740005657874726178';

function hex(s: string): Uint8Array {
  return Uint8Array.from(s.match(/../g)!.map((b) => parseInt(b, 16)));
}

describe('readCheckpointProperties', () => {
  it('reads a checkpoint: CheckpointType with its name, no format type', () => {
    const bytes = hex(FULL_CHECKPOINT);
    expect(readCheckpointProperties(bytes, '_metadata', 2000)).toEqual({
      type: 'checkpoint',
      name: 'Full Checkpoint',
      trailerSize: 607,
      trailerOffset: 2000,
      snapshotTypeClass: 'org.apache.flink.runtime.checkpoint.CheckpointType',
    });
  });

  it('skips the object annotation of classes with a writeObject method (block data and objects)', () => {
    const p = readCheckpointProperties(hex(CHECKPOINT_WITH_WRITE_METHOD));
    expect(p).toMatchObject({ type: 'checkpoint', name: 'Checkpoint', trailerSize: 623 });
    expect(p.warning).toBeUndefined();
  });

  it('reports a truncated stream with file, absolute offset and path', () => {
    const bytes = hex(FULL_CHECKPOINT).subarray(0, 600);
    const e = decodeErrorOf(() => readCheckpointProperties(bytes, '_metadata', 2000));
    expect(e.code).toBe('truncated');
    expect(e.message).toBe(
      'expected 10 bytes for Java string (10 bytes of modified UTF-8), found 3 — at _metadata, offset 2597 (0xa25) [checkpoint properties]',
    );
  });

  it('reports an empty trailer and a trailer that is not Java serialization', () => {
    expect(decodeErrorOf(() => readCheckpointProperties(new Uint8Array(0), '_metadata', 77)).message).toBe(
      'expected the checkpoint properties (a Java serialization stream) after the operator states, found the end of the file — at _metadata, offset 77 (0x4d) [checkpoint properties]',
    );
    const e = decodeErrorOf(() => readCheckpointProperties(new Uint8Array([0xca, 0xfe, 0xba, 0xbe, 0]), '_metadata', 10));
    expect(e.code).toBe('bad-magic');
    expect(e.message).toBe('expected a Java serialization stream (AC ED 00 05), found CA FE BA BE — at _metadata, offset 10 (0xa) [checkpoint properties]');
  });

  it('falls back to scanning, with a warning, when the stream uses unsupported features (Externalizable)', () => {
    const bytes = hex(FULL_CHECKPOINT);
    // class flags of CheckpointProperties: SC_SERIALIZABLE (0x02) → SC_EXTERNALIZABLE | SC_BLOCK_DATA (0x0c)
    const flagsAt = 2 + 2 + 1 + 1 + 2 + 56 + 8;
    expect(bytes[flagsAt]).toBe(0x02);
    bytes[flagsAt] = 0x0c;
    const p = readCheckpointProperties(bytes, '_metadata', 0);
    expect(p).toMatchObject({ type: 'checkpoint', name: 'Full Checkpoint', trailerSize: 607 });
    expect(p.warning).toBe(
      'checkpoint properties read by scanning, the Java object could not be parsed: expected a Serializable class in the checkpoint properties, found the Externalizable class org.apache.flink.runtime.checkpoint.CheckpointProperties — at _metadata, offset 258 (0x102) [checkpoint properties]',
    );
  });

  it('refuses a superclass that refers to its own class descriptor, and a string used as a class descriptor', () => {
    // the superclass of CheckpointType (handle 0x7e0003) is TC_NULL right before TC_STRING "Full Checkpoint"
    const at = FULL_CHECKPOINT.indexOf('787074000f46756c6c') / 2 + 1;
    const withSuper = (handle: number) => {
      const bytes = hex(FULL_CHECKPOINT);
      return Uint8Array.from([...bytes.subarray(0, at), 0x71, 0, 0x7e, 0, handle, ...bytes.subarray(at + 1)]);
    };
    const self = decodeErrorOf(() => readCheckpointProperties(withSuper(3), '_metadata', 100));
    expect([self.code, self.message]).toEqual([
      'invalid-value',
      `expected the superclass chain of org.apache.flink.runtime.checkpoint.CheckpointType to end, found it refers back to org.apache.flink.runtime.checkpoint.CheckpointType (a cycle of 1 class descriptor) — at _metadata, offset ${100 + at} (0x${(100 + at).toString(16)}) [checkpoint properties]`,
    ]);
    const string = decodeErrorOf(() => readCheckpointProperties(withSuper(1), '_metadata', 100));
    expect(string.message).toBe(
      `expected a back-reference to a class descriptor, found one to a string ("Lorg/apache/flink/runtime/checkpoint/Sna…") — at _metadata, offset ${100 + at} (0x${(100 + at).toString(16)}) [checkpoint properties]`,
    );
  });

  it('rejects a stream whose object is not CheckpointProperties', () => {
    // TC_STRING "x"
    const e = decodeErrorOf(() => readCheckpointProperties(new Uint8Array([0xac, 0xed, 0, 5, 0x74, 0, 1, 0x78])));
    expect(e.message).toBe(
      'expected a org.apache.flink.runtime.checkpoint.CheckpointProperties object, found a string — at _metadata, offset 0 (0x0) [checkpoint properties]',
    );
  });

  it('scan finds savepoint type, format and name in plain bytes', () => {
    const text = 'xx org.apache.flink.runtime.checkpoint.SavepointType yy NATIVE ';
    const bytes = new Uint8Array([...text].map((c) => c.charCodeAt(0)).concat([0x74, 0, 17, ...[...'Suspend Savepoint'].map((c) => c.charCodeAt(0))]));
    expect(scanCheckpointProperties(bytes)).toEqual({ type: 'savepoint', formatType: 'NATIVE', name: 'Suspend Savepoint', trailerSize: bytes.length });
  });
});
