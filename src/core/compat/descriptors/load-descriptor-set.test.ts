/** loadDescriptorSet's per-file messages point at the file's entry in the bytes as given, with or without source info dropped and a cache. */
import { create, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import { isDecodeError } from '../../io';
import { createDescriptorFileCache, loadDescriptorSet } from './load-descriptor-set';

const file = (name: string, withSourceInfo: boolean) => ({
  name,
  syntax: 'proto3',
  messageType: [{ name: name === '' ? 'N' : 'M', field: [{ name: 'x', number: 1, type: 5, label: 1 }] }],
  ...(withSourceInfo ? { sourceCodeInfo: { location: [{ path: [4, 0], span: [1, 2, 3], leadingComments: 'x'.repeat(300) }] } } : {}),
});

function offsetOfFailure(bytes: Uint8Array, cache: boolean): number | undefined {
  try {
    loadDescriptorSet(bytes, 'x.binpb', cache ? createDescriptorFileCache() : undefined);
  } catch (e) {
    if (isDecodeError(e)) return e.offset;
    throw e;
  }
  return undefined;
}

describe('loadDescriptorSet offsets', () => {
  for (const withSourceInfo of [false, true]) {
    for (const cache of [false, true]) {
      it(`names the second file's entry in the input (source info ${withSourceInfo ? 'dropped' : 'absent'}, ${cache ? 'with' : 'without'} a cache)`, () => {
        const first = toBinary(FileDescriptorSetSchema, create(FileDescriptorSetSchema, { file: [file('a.proto', withSourceInfo)] }));
        const bytes = toBinary(FileDescriptorSetSchema, create(FileDescriptorSetSchema, { file: [file('a.proto', withSourceInfo), file('', false)] }));
        expect(offsetOfFailure(bytes, cache)).toBe(first.length);
        expect(first.length).toBeGreaterThan(withSourceInfo ? 300 : 0);
      });
    }
  }
});
