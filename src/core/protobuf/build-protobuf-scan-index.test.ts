import { create, createFileRegistry } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import { classifyError, isDecodeError } from '../io';
import { buildProtobufScanIndex, MAX_SCAN_MESSAGES } from './build-protobuf-scan-index';

/** Root `w.Root` with one message field of its own empty type per number: `types` message types in all. */
function wideRoot(types: number) {
  const n = types - 1;
  const set = create(FileDescriptorSetSchema, {
    file: [
      {
        name: 'wide.proto',
        package: 'w',
        syntax: 'proto3',
        messageType: [
          { name: 'Root', field: Array.from({ length: n }, (_, i) => ({ name: `f${i}`, number: i + 1, label: 1, type: 11, typeName: `.w.M${i}` })) },
          ...Array.from({ length: n }, (_, i) => ({ name: `M${i}` })),
        ],
      },
    ],
  });
  return createFileRegistry(set).getMessage('w.Root')!;
}

describe('buildProtobufScanIndex', () => {
  it('a schema reaching more message types than the 16-bit index holds is a limit-exceeded DecodeError (input), not a RangeError (bug)', () => {
    const e = (() => {
      try {
        return buildProtobufScanIndex(wideRoot(MAX_SCAN_MESSAGES + 1));
      } catch (x) {
        return x;
      }
    })();
    expect(isDecodeError(e) && [classifyError(e), e.code, e.message]).toEqual([
      'input',
      'limit-exceeded',
      "expected at most 65534 message types reachable from w.Root (this inspector's cap for the value scan), found 65535",
    ]);
  });
});
