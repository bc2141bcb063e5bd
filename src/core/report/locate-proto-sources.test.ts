/**
 * createProtoSourceLocator: declarations, fields and enum values (nested too) of a descriptor set's source
 * info, as 1-based SARIF regions from protoc's 0-based spans of three ([line, column, endColumn]) or four
 * elements; no locator for a set without source info or bytes that are not one.
 */
import { create, fromJson, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema, type SourceCodeInfo_LocationJson } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import { createProtoSourceLocator } from './locate-proto-sources';

const location = (path: number[], span: number[]): SourceCodeInfo_LocationJson => ({ path, span });

function setBytes(withSourceInfo: boolean): Uint8Array {
  return toBinary(
    FileDescriptorSetSchema,
    fromJson(FileDescriptorSetSchema, {
      file: [
        {
          name: 'example/event.proto',
          package: 'example',
          syntax: 'proto3',
          messageType: [
            {
              name: 'Event',
              field: [
                { name: 'id', number: 1, type: 'TYPE_INT64', label: 'LABEL_OPTIONAL', jsonName: 'id' },
                { name: 'count', number: 7, type: 'TYPE_INT32', label: 'LABEL_OPTIONAL', jsonName: 'count' },
              ],
              nestedType: [{ name: 'Inner', field: [{ name: 'x', number: 3, type: 'TYPE_STRING', label: 'LABEL_OPTIONAL', jsonName: 'x' }] }],
            },
          ],
          enumType: [
            {
              name: 'Kind',
              value: [
                { name: 'KIND_UNKNOWN', number: 0 },
                { name: 'KIND_DONE', number: 2 },
              ],
            },
          ],
          ...(withSourceInfo
            ? {
                sourceCodeInfo: {
                  location: [
                    location([4, 0], [4, 0, 11, 1]),
                    location([4, 0, 2, 0], [5, 2, 15]),
                    location([4, 0, 2, 1], [6, 2, 18]),
                    location([4, 0, 3, 0], [7, 2, 9, 3]),
                    location([4, 0, 3, 0, 2, 0], [8, 4, 18]),
                    location([5, 0], [13, 0, 16, 1]),
                    location([5, 0, 2, 1], [15, 2, 16]),
                  ],
                },
              }
            : {}),
        },
      ],
    }),
  );
}

describe('createProtoSourceLocator', () => {
  const sources = createProtoSourceLocator(setBytes(true))!;

  it('places messages, fields, nested types and enum values on their 1-based lines and columns', () => {
    const at = (startLine: number, startColumn: number, endLine: number, endColumn: number) => ({
      file: 'example/event.proto',
      startLine,
      startColumn,
      endLine,
      endColumn,
    });
    expect(sources.declaration('example.Event')).toEqual(at(5, 1, 12, 2));
    expect(sources.declaration('.example.Event')).toEqual(at(5, 1, 12, 2));
    expect(sources.member('example.Event', 7)).toEqual(at(7, 3, 7, 19));
    expect(sources.member('example.Event', 1)).toEqual(at(6, 3, 6, 16));
    expect(sources.declaration('example.Event.Inner')).toEqual(at(8, 3, 10, 4));
    expect(sources.member('example.Event.Inner', 3)).toEqual(at(9, 5, 9, 19));
    expect(sources.declaration('example.Kind')).toEqual(at(14, 1, 17, 2));
    expect(sources.member('example.Kind', 2)).toEqual(at(16, 3, 16, 17));
    expect(sources.file('example/event.proto')).toEqual(at(1, 1, 1, 1));
  });

  it('knows nothing it was not told: an unknown name or number, a member without a span', () => {
    expect(sources.declaration('example.Missing')).toBeUndefined();
    expect(sources.member('example.Event', 99)).toBeUndefined();
    expect(sources.member('example.Kind', 0)).toBeUndefined();
    expect(sources.file('other.proto')).toBeUndefined();
  });

  it('gives no locator without source info, or for bytes that are not a descriptor set', () => {
    expect(createProtoSourceLocator(setBytes(false))).toBeUndefined();
    expect(createProtoSourceLocator(toBinary(FileDescriptorSetSchema, create(FileDescriptorSetSchema)))).toBeUndefined();
    expect(createProtoSourceLocator(new Uint8Array([0x0a, 0xff]))).toBeUndefined();
  });
});
