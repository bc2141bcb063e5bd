import { create } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import { classifyError, isDecodeError } from '../../io';
import { orderFilesByImports } from './order-files-by-imports';

const file = (name: string, ...dependency: string[]) => create(FileDescriptorProtoSchema, { name, dependency });

describe('orderFilesByImports', () => {
  it('puts imports first, ties by the smallest name', () => {
    expect(orderFilesByImports([file('c.proto', 'a.proto'), file('b.proto'), file('a.proto', 'b.proto')]).map((f) => f.name)).toEqual([
      'b.proto',
      'a.proto',
      'c.proto',
    ]);
  });

  it("an import cycle is the input's fault: an invalid-value DecodeError naming the cycle, not the files that merely import it", () => {
    const e = (() => {
      try {
        return orderFilesByImports([
          file('app.proto', 'x.proto'),
          file('x.proto', 'y.proto'),
          file('y.proto', 'z.proto'),
          file('z.proto', 'x.proto'),
          file('base.proto'),
        ]);
      } catch (x) {
        return x;
      }
    })();
    expect(isDecodeError(e) && [classifyError(e), e.code, e.message]).toEqual([
      'input',
      'invalid-value',
      'Cyclic descriptor file imports: x.proto → y.proto → z.proto → x.proto',
    ]);
  });
});
