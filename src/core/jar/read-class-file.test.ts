import { describe, expect, it } from 'vitest';
import { CP, readClassFile } from './read-class-file';
import { ConstantPoolWriter, u2, u4, writeClassFile } from './write-class-file';

const FILE = 'app.jar!/com/x/Outer.class';

function catchMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
}

describe('readClassFile', () => {
  it('reads a constant pool with every tag (long and double take two slots) and finds the methods', () => {
    const pool = new ConstantPoolWriter();
    const hello = pool.string('hello');
    const answer = pool.integer(42);
    pool.raw([CP.float, ...u4(0x3f800000)]);
    const long = pool.raw([CP.long, ...u4(0), ...u4(7)]);
    const afterLong = pool.string('after long');
    pool.raw([CP.double, ...u4(0), ...u4(0)]);
    const afterDouble = pool.string('after double');
    const method = pool.methodRef('com/x/Dep', 'getDescriptor', '()V');
    const iface = pool.classRef('com/x/Iface');
    const nt = pool.nameAndType('run', '()V');
    pool.raw([CP.interfaceMethodref, ...u2(iface), ...u2(nt)]);
    pool.raw([CP.methodHandle, 6, ...u2(method)]);
    pool.raw([CP.methodType, ...u2(pool.utf8('()V'))]);
    pool.raw([CP.dynamic, ...u2(0), ...u2(nt)]);
    pool.raw([CP.invokeDynamic, ...u2(0), ...u2(nt)]);
    pool.raw([CP.module, ...u2(pool.utf8('app'))]);
    pool.raw([CP.package, ...u2(pool.utf8('com/x'))]);
    const cls = readClassFile(
      writeClassFile(pool, 'com/x/Outer', [
        { name: '<clinit>', descriptor: '()V', code: [0xb1] },
        { name: 'abstractOne', descriptor: '()V' },
      ]),
      FILE,
    );
    expect(cls.thisClass).toBe('com/x/Outer');
    expect(cls.stringAt(hello)).toBe('hello');
    expect(cls.integerAt(answer)).toBe(42);
    expect(cls.tagAt(long)).toBe(CP.long);
    expect(cls.tagAt(long + 1)).toBeUndefined();
    expect(cls.stringAt(afterLong)).toBe('after long');
    expect(cls.stringAt(afterDouble)).toBe('after double');
    expect(cls.memberAt(method)).toEqual({ tag: CP.methodref, owner: 'com/x/Dep', name: 'getDescriptor', descriptor: '()V' });
    expect(cls.listStrings()).toEqual(['hello', 'after long', 'after double']);
    expect(cls.hasUtf8('getDescriptor')).toBe(true);
    expect(cls.hasUtf8('getDescriptors')).toBe(false);
    expect(cls.methods.map((m) => [m.name, m.code?.code.length])).toEqual([
      ['<clinit>', 1],
      ['abstractOne', undefined],
    ]);
  });

  it('names a broken constant pool, a bad index, a wrong magic and a truncated class exactly', () => {
    const pool = new ConstantPoolWriter();
    pool.utf8('x');
    pool.raw([2, 0, 0]);
    expect(catchMessage(() => readClassFile(writeClassFile(pool, 'com/x/Outer', []), FILE))).toBe(
      'expected a constant pool tag (1, 3–12, 15–20) for entry 2 of 7, found 2: the constant pool is broken — at app.jar!/com/x/Outer.class, offset 14 (0xe) [class file]',
    );
    const bad = new ConstantPoolWriter();
    const utf = bad.utf8('com/x/Outer');
    const cls = readClassFile(writeClassFile(bad, 'com/x/Outer', []), FILE);
    expect(catchMessage(() => cls.stringAt(utf))).toBe(
      `expected a String entry at constant pool index ${utf}, found an entry of tag 1: the constant pool is broken — at app.jar!/com/x/Outer.class, offset 10 (0xa) [class file / constant pool]`,
    );
    const bytes = writeClassFile(new ConstantPoolWriter(), 'com/x/Outer', []);
    bytes[0] = 0xca;
    bytes[3] = 0x00;
    expect(catchMessage(() => readClassFile(bytes, FILE))).toBe(
      'expected a class file (magic 0xCAFEBABE), found 0xcafeba00 — at app.jar!/com/x/Outer.class, offset 0 (0x0)',
    );
    const whole = writeClassFile(new ConstantPoolWriter(), 'com/x/Outer', []);
    expect(catchMessage(() => readClassFile(whole.subarray(0, 20), FILE))).toBe(
      'expected 11 bytes for constant pool entry 1 (11 bytes of modified UTF-8), found 7 — at app.jar!/com/x/Outer.class, offset 13 (0xd) [class file]',
    );
  });
});
