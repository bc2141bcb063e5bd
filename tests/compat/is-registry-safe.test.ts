/**
 * isRegistrySafe against the registry it stands in for: whenever it answers true,
 * createFileRegistry accepts the same files. Checked on the repository's descriptor sets (which must
 * all be safe, or the fast path would never run) and on thousands of seeded mutations of them that
 * break type references, labels, oneofs, names, syntax, imports, map entries and extension names (found
 * by review: an extension named like a type, a map field inside a map entry); the mutations must
 * also make the registry fail often, and leave enough sets safe, or the property says nothing.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { clone, create, createFileRegistry, fromBinary, toBinary } from '@bufbuild/protobuf';
import {
  FieldDescriptorProtoSchema,
  FileDescriptorSetSchema,
  MessageOptionsSchema,
  MethodDescriptorProtoSchema,
  OneofDescriptorProtoSchema,
  ServiceDescriptorProtoSchema,
  type DescriptorProto,
  type FieldDescriptorProto,
  type FileDescriptorProto,
  type FileDescriptorSet,
} from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import { isRegistrySafe } from '../../src/core/compat/descriptors/is-registry-safe';
import { createSeededRandom } from '../robustness/seeded-random';
import { loadDescriptorSet } from '../../src/core/compat';
import { orderFilesByImports } from '../../src/core/compat/descriptors/order-files-by-imports';
import { NEEDS_SHARED_TAG } from '../helpers/shared-savepoints';

const ROOT = process.cwd();
const CASES = path.join(ROOT, 'fixtures/schema-changes');
const setFiles = [
  ...(existsSync(CASES) ? readdirSync(CASES).flatMap((c) => ['old.binpb', 'new.binpb'].map((f) => path.join(CASES, c, f))) : []),
  path.join(ROOT, 'src/ui/demo-schema/events-changed.binpb'),
].filter((f) => existsSync(f));
const sets = setFiles.map((f) => fromBinary(FileDescriptorSetSchema, new Uint8Array(readFileSync(f)), { readUnknownFields: true }));

/** Real images (buf build) of public schema histories, when ../shared is there. */
const BENCH_SCHEMAS = path.resolve(ROOT, '../shared/bench-schemas');
const benchImages = existsSync(BENCH_SCHEMAS)
  ? readdirSync(BENCH_SCHEMAS)
      .flatMap((d) => ['old.binpb', 'new.binpb'].map((f) => path.join(BENCH_SCHEMAS, d, f)))
      .filter((f) => existsSync(f))
  : [];
/** reads ../shared: skipped when it is absent, and counted by the run's skip report through the tag */
const NEEDS_BENCH_SCHEMAS = { tags: [NEEDS_SHARED_TAG], skip: benchImages.length === 0 };

function registryAccepts(files: FileDescriptorProto[], set: FileDescriptorSet): boolean {
  try {
    createFileRegistry({ ...set, file: files });
    return true;
  } catch {
    return false;
  }
}

function listMessages(files: FileDescriptorProto[]): { file: FileDescriptorProto; message: DescriptorProto; fullName: string }[] {
  const out: { file: FileDescriptorProto; message: DescriptorProto; fullName: string }[] = [];
  const visit = (file: FileDescriptorProto, m: DescriptorProto, prefix: string) => {
    out.push({ file, message: m, fullName: prefix + m.name });
    for (const n of m.nestedType) visit(file, n, `${prefix}${m.name}.`);
  };
  for (const f of files) for (const m of f.messageType) visit(f, m, f.package ? `${f.package}.` : '');
  return out;
}

const BAD_NAMES = ['', 'a.b', 'x-y', 'white space', 'ümlaut'];

function mutate(set: FileDescriptorSet, random: () => number): FileDescriptorSet {
  const copy = clone(FileDescriptorSetSchema, set);
  const pick = <T>(list: readonly T[]): T | undefined => (list.length === 0 ? undefined : list[Math.floor(random() * list.length)]);
  const messages = listMessages(copy.file);
  const fields: { field: FieldDescriptorProto; message: DescriptorProto }[] = messages.flatMap(({ message }) =>
    message.field.map((field) => ({ field, message })),
  );
  const names = [
    ...messages.map((m) => m.fullName),
    ...copy.file.flatMap((f) => f.enumType.map((e) => (f.package ? `${f.package}.` : '') + e.name)),
    'nope.Missing',
  ];
  const steps = 1 + Math.floor(random() * 3);
  for (let s = 0; s < steps; s++) {
    const target = pick(fields);
    const m = pick(messages);
    switch (Math.floor(random() * 19)) {
      case 0:
        if (target) target.field.typeName = (random() < 0.8 ? '.' : '') + pick(names)!;
        break;
      case 1:
        if (target) target.field.type = Math.floor(random() * 21) as FieldDescriptorProto['type'];
        break;
      case 2:
        if (target) target.field.label = (1 + Math.floor(random() * 3)) as FieldDescriptorProto['label'];
        break;
      case 3:
        if (target) target.field.oneofIndex = Math.floor(random() * 4) - 1;
        break;
      case 4:
        if (target) target.field.proto3Optional = !target.field.proto3Optional;
        break;
      case 5:
        if (target) target.field.name = pick(BAD_NAMES)!;
        else if (m) m.message.name = pick(BAD_NAMES)!;
        break;
      case 6:
        // a second declaration of the same full name
        if (m) m.file.messageType.push(m.message);
        break;
      case 7: {
        const f = pick(copy.file);
        if (f) f.syntax = pick(['editions', 'proto4', '', 'proto2', 'proto3'])!;
        break;
      }
      case 8: {
        const f = pick(copy.file);
        if (f) f.dependency.push(random() < 0.5 ? 'missing.proto' : pick(copy.file)!.name);
        break;
      }
      case 9:
        if (m) {
          const list = m.file.messageType;
          const i = list.indexOf(m.message);
          if (i >= 0) list.splice(i, 1);
        }
        break;
      case 10:
        if (m) {
          m.message.options = m.message.options ? clone(MessageOptionsSchema, m.message.options) : create(MessageOptionsSchema);
          m.message.options.mapEntry = !m.message.options.mapEntry;
        }
        break;
      case 11: {
        const entry = messages.find((x) => x.message.options?.mapEntry);
        const f = entry && pick(entry.message.field);
        if (f) {
          if (random() < 0.5) f.type = pick([1, 2, 11, 12, 14, 9, 3])! as FieldDescriptorProto['type'];
          else f.label = 3 as FieldDescriptorProto['label'];
        }
        break;
      }
      case 12:
        // a message (possibly a map entry) moved to another file: references across files
        if (m && copy.file.length > 1) {
          const list = m.file.messageType;
          const i = list.indexOf(m.message);
          const other = copy.file.find((f) => f !== m.file);
          if (i >= 0 && other) other.messageType.push(...list.splice(i, 1));
        }
        break;
      case 14: {
        // a map entry declared by another (imported) file, the map field pointing at it there
        const owner = messages.find((x) => x.message.nestedType.some((n) => n.options?.mapEntry));
        const other = owner && pick(copy.file.filter((f) => f !== owner.file));
        if (owner && other) {
          const entry = owner.message.nestedType.find((n) => n.options?.mapEntry)!;
          owner.message.nestedType.splice(owner.message.nestedType.indexOf(entry), 1);
          other.messageType.push(entry);
          for (const f of owner.message.field)
            if (f.typeName === `.${owner.fullName}.${entry.name}`) f.typeName = `.${other.package ? `${other.package}.` : ''}${entry.name}`;
          if (!owner.file.dependency.includes(other.name)) owner.file.dependency.push(other.name);
        }
        break;
      }
      case 15: {
        // an extension (custom option) of another or a missing message, or of an enum-typed value
        const ext = pick(copy.file.flatMap((f) => f.extension));
        if (ext) {
          if (random() < 0.5) ext.extendee = (random() < 0.8 ? '.' : '') + pick(names)!;
          else ext.typeName = `.${pick(names)!}`;
        }
        break;
      }
      case 16: {
        // an extension named like a type of its scope (the registry keeps both in one name table)
        const f = pick(copy.file.filter((x) => x.extension.length > 0 && x.messageType.length > 0));
        if (f) pick(f.extension)!.name = pick(f.messageType)!.name;
        break;
      }
      case 17: {
        // a map entry that is more than key and value: a map field inside it (to itself or another entry), or its fields reordered
        const entries = messages.filter((x) => x.message.options?.mapEntry);
        const entry = pick(entries);
        if (entry) {
          const r = random();
          if (r < 0.25) {
            // its own key or value becomes a map field (to itself or another entry)
            const f = pick(entry.message.field);
            if (f) Object.assign(f, { label: 3, type: 11, typeName: `.${pick(entries)!.fullName}` });
          } else if (r < 0.7) {
            const target = pick(entries)!;
            const inner = create(FieldDescriptorProtoSchema, { name: 'inner', number: 3, label: 3, type: 11, typeName: `.${target.fullName}` });
            if (random() < 0.5) entry.message.field.unshift(inner);
            else entry.message.field.push(inner);
          } else entry.message.field.reverse();
        }
        break;
      }
      case 13:
        if (m) m.message.oneofDecl.push(create(OneofDescriptorProtoSchema, { name: pick(['kind', ...BAD_NAMES])! }));
        break;
      case 18: {
        // a service: named freshly, like a type or badly; its method's input and output any type name (or none)
        const file = pick(copy.file)!;
        const typeOrMissing = () => (random() < 0.8 ? '.' : '') + pick(names)!;
        const name = random() < 0.6 ? 'Svc' : random() < 0.5 ? (pick(messages)?.message.name ?? 'Svc') : pick(BAD_NAMES)!;
        const method = create(MethodDescriptorProtoSchema, { name: 'Call', inputType: typeOrMissing(), outputType: typeOrMissing() });
        file.service.push(create(ServiceDescriptorProtoSchema, { name, method: [method] }));
        break;
      }
    }
  }
  return copy;
}

describe('isRegistrySafe', () => {
  it('passes every descriptor set of the repository (so loading them skips the registry)', () => {
    expect(sets.length).toBeGreaterThanOrEqual(60);
    for (const [i, set] of sets.entries()) expect(isRegistrySafe(orderFilesByImports(set.file)), setFiles[i]).toBe(true);
  });

  it(
    'passes the real images of ../shared/bench-schemas (grpc-proto, opentelemetry-proto: services, custom options), which the registry accepts',
    NEEDS_BENCH_SCHEMAS,
    () => {
      for (const file of benchImages) {
        const set = fromBinary(FileDescriptorSetSchema, new Uint8Array(readFileSync(file)), { readUnknownFields: true });
        const ordered = orderFilesByImports(set.file);
        expect(
          set.file.some((f) => f.service.length > 0),
          file,
        ).toBe(true);
        expect(registryAccepts(ordered, set), file).toBe(true);
        expect(isRegistrySafe(ordered), file).toBe(true);
      }
    },
  );

  it('answers true only where createFileRegistry accepts the files (seeded mutations)', () => {
    const random = createSeededRandom(20261130).next;
    // the sets with several files, maps or extensions get a share of their own
    const rich = sets.filter((s) => s.file.length > 1);
    expect(rich.length).toBeGreaterThanOrEqual(2);
    let safe = 0;
    let rejected = 0;
    let checked = 0;
    for (let i = 0; i < 6000; i++) {
      const base = i % 3 === 0 ? rich[(i / 3) % rich.length]! : sets[i % sets.length]!;
      const set = mutate(base, random);
      let ordered: FileDescriptorProto[];
      try {
        ordered = orderFilesByImports(set.file);
      } catch {
        continue; // an import cycle: loadDescriptorSet rejects it before either is asked
      }
      checked++;
      const accepts = registryAccepts(ordered, set);
      if (!accepts) rejected++;
      if (isRegistrySafe(ordered)) {
        safe++;
        if (!accepts) expect.fail(`isRegistrySafe passed a set the registry rejects (mutation ${i} of ${setFiles[sets.indexOf(base)]})`);
      }
    }
    expect(checked).toBeGreaterThan(5000);
    expect(rejected).toBeGreaterThan(1000);
    expect(safe).toBeGreaterThan(1000);
  });

  it('does not pass the shapes a review found the registry rejects (extension named like a type, map field inside a map entry)', () => {
    const [INT32, STRING, MESSAGE, OPTIONAL, REPEATED] = [5, 9, 11, 1, 3] as const;
    const entry = (name: string, extra: object[] = []) => ({
      name,
      options: { mapEntry: true },
      field: [...extra, { name: 'key', number: 1, label: OPTIONAL, type: STRING }, { name: 'value', number: 2, label: OPTIONAL, type: STRING }],
    });
    const shapes = {
      extensionNamedLikeMessage: {
        name: 'a.proto',
        package: 'p',
        syntax: 'proto2',
        messageType: [
          { name: 'M', field: [{ name: 'self', number: 1, label: OPTIONAL, type: MESSAGE, typeName: '.p.M' }], extensionRange: [{ start: 100, end: 200 }] },
        ],
        extension: [{ name: 'M', number: 100, label: OPTIONAL, type: INT32, extendee: '.p.M' }],
      },
      extensionNamedLikeExtendee: {
        name: 'a.proto',
        package: 'p',
        syntax: 'proto2',
        messageType: [{ name: 'M', extensionRange: [{ start: 100, end: 200 }] }],
        extension: [
          { name: 'M', number: 100, label: OPTIONAL, type: INT32, extendee: '.p.M' },
          { name: 'x', number: 101, label: OPTIONAL, type: INT32, extendee: '.p.M' },
        ],
      },
      mapFieldInsideMapEntry: {
        name: 'b.proto',
        package: 'p',
        syntax: 'proto3',
        messageType: [
          {
            name: 'M',
            nestedType: [entry('AEntry', [{ name: 'inner', number: 3, label: REPEATED, type: MESSAGE, typeName: '.p.M.BEntry' }]), entry('BEntry')],
          },
        ],
      },
      mapEntryReferringToItself: {
        name: 'b.proto',
        package: 'p',
        syntax: 'proto3',
        messageType: [{ name: 'M', nestedType: [entry('AEntry', [{ name: 'inner', number: 3, label: REPEATED, type: MESSAGE, typeName: '.p.M.AEntry' }])] }],
      },
      // (second review) an unreferenced entry whose own value or key is a map field to an entry built after it
      entryValueIsMapField: {
        name: 'c.proto',
        package: 'p',
        syntax: 'proto3',
        messageType: [
          {
            name: 'M',
            nestedType: [
              {
                name: 'AEntry',
                options: { mapEntry: true },
                field: [
                  { name: 'key', number: 1, label: OPTIONAL, type: STRING },
                  { name: 'value', number: 2, label: REPEATED, type: MESSAGE, typeName: '.p.M.BEntry' },
                ],
              },
              entry('BEntry'),
            ],
          },
        ],
      },
      entryKeyIsMapField: {
        name: 'c.proto',
        package: 'p',
        syntax: 'proto3',
        messageType: [
          {
            name: 'M',
            nestedType: [
              {
                name: 'AEntry',
                options: { mapEntry: true },
                field: [
                  { name: 'key', number: 1, label: REPEATED, type: MESSAGE, typeName: '.p.M.BEntry' },
                  { name: 'value', number: 2, label: OPTIONAL, type: STRING },
                ],
              },
              entry('BEntry'),
            ],
          },
        ],
      },
    };
    for (const [name, file] of Object.entries(shapes)) {
      const set = create(FileDescriptorSetSchema, { file: [file as never] });
      expect(registryAccepts(set.file, set), name).toBe(false);
      expect(isRegistrySafe(set.file), name).toBe(false);
    }
  });

  it('names a registry failure that came without a reason', () => {
    const set = create(FileDescriptorSetSchema, {
      file: [
        {
          name: 'c.proto',
          package: 'p',
          syntax: 'proto3',
          messageType: [
            {
              name: 'M',
              nestedType: [
                {
                  name: 'AEntry',
                  options: { mapEntry: true },
                  field: [
                    { name: 'key', number: 1, label: 1, type: 9 },
                    { name: 'value', number: 2, label: 3, type: 11, typeName: '.p.M.BEntry' },
                  ],
                },
                {
                  name: 'BEntry',
                  options: { mapEntry: true },
                  field: [
                    { name: 'key', number: 1, label: 1, type: 9 },
                    { name: 'value', number: 2, label: 1, type: 9 },
                  ],
                },
              ],
            },
          ],
        } as never,
      ],
    });
    expect(() => loadDescriptorSet(toBinary(FileDescriptorSetSchema, set), 'c.binpb')).toThrow(
      'Invalid descriptor set: @bufbuild/protobuf could not build its descriptors and gave no reason (a map entry message that is not exactly a scalar key 1 and a singular value 2 is one cause) — at c.binpb, offset 0 (0x0) [descriptor set]',
    );
  });

  it('leaves a set it does not pass to the registry; the validation before it names the problem', () => {
    const set = clone(FileDescriptorSetSchema, sets[0]!);
    const field = set.file[0]!.messageType[0]!.field[0]!;
    field.type = 11 as FieldDescriptorProto['type'];
    field.typeName = '.nope.Missing';
    expect(isRegistrySafe(orderFilesByImports(set.file))).toBe(false);
    expect(() => loadDescriptorSet(toBinary(FileDescriptorSetSchema, set), 'bad.binpb')).toThrow(
      new RegExp(
        `^Invalid descriptor set \\(protoc would refuse it\\): Field \\S+\\.${field.name} has type \\.nope\\.Missing, which no file of the set declares — at bad\\.binpb, offset 0 \\(0x0\\) \\[descriptor set / ${set.file[0]!.name} / message `,
      ),
    );
  });
});
