/** loadDescriptorSet with a file cache: a file two sets hold alike is decoded once and shared; everything else decodes as without it. */
import { create, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import { createDescriptorFileCache, loadDescriptorSet } from './load-descriptor-set';

const file = (name: string, field: string) => ({
  name,
  package: name.replace('.proto', ''),
  syntax: 'proto3',
  messageType: [{ name: 'M', field: [{ name: field, number: 1, type: 5, label: 1 }] }],
});
const setBytes = (...files: ReturnType<typeof file>[]) => toBinary(FileDescriptorSetSchema, create(FileDescriptorSetSchema, { file: files }));

describe('loadDescriptorSet with a file cache', () => {
  it('shares the files two sets hold byte for byte, and decodes the others', () => {
    const cache = createDescriptorFileCache();
    const old = loadDescriptorSet(setBytes(file('a.proto', 'x'), file('b.proto', 'y')), 'old.binpb', cache).set;
    const next = loadDescriptorSet(setBytes(file('a.proto', 'x'), file('b.proto', 'z'), file('c.proto', 'w')), 'new.binpb', cache).set;
    expect(next.file[0]).toBe(old.file[0]);
    expect(next.file[1]).not.toBe(old.file[1]);
    expect(next.file.map((f) => [f.name, f.messageType[0]!.field[0]!.name])).toEqual([
      ['a.proto', 'x'],
      ['b.proto', 'z'],
      ['c.proto', 'w'],
    ]);
    expect(next).toEqual(loadDescriptorSet(setBytes(file('a.proto', 'x'), file('b.proto', 'z'), file('c.proto', 'w')), 'new.binpb').set);
  });

  it('reports a corrupt set as without the cache', () => {
    const bytes = setBytes(file('a.proto', 'x'));
    const corrupt = bytes.slice(0, bytes.length - 2);
    const message = (load: () => unknown): string => {
      try {
        load();
      } catch (e) {
        return (e as Error).message;
      }
      return 'no error';
    };
    expect(message(() => loadDescriptorSet(corrupt, 'x.binpb', createDescriptorFileCache()))).toBe(message(() => loadDescriptorSet(corrupt, 'x.binpb')));
    expect(message(() => loadDescriptorSet(corrupt, 'x.binpb'))).toMatch(/^Recognised as a FileDescriptorSet but corrupt/);
  });
});
