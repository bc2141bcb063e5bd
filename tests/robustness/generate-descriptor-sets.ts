/**
 * A structure-aware generator of large and hostile descriptor sets for `compare`: it decodes a
 * fixture's FileDescriptorSet, finds the root message (and its enums), and grows one part of it,
 * seeded: up to 100,000 reserved ranges (distinct, overlapping, nested, split on one side and
 * merged on the other), reserved names, or enum reserved ranges — on the saved side, the new side
 * or both. These sets are valid: `compare` must answer (exit 0 or 1) in time linear in their size.
 */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import {
  DescriptorProto_ReservedRangeSchema,
  EnumDescriptorProto_EnumReservedRangeSchema,
  EnumDescriptorProtoSchema,
  FileDescriptorProtoSchema,
  FileDescriptorSetSchema,
  type DescriptorProto,
  type FileDescriptorSet,
} from '@bufbuild/protobuf/wkt';
import type { SeededRandom } from './seeded-random';

export const DESCRIPTOR_GROWTHS = ['reserved-ranges', 'reserved-names', 'enum-reserved-ranges'] as const;
export type DescriptorGrowth = (typeof DESCRIPTOR_GROWTHS)[number];

/** Field numbers above every field the fixtures declare (and below 19000, protoc's own range). */
const FIRST_FREE = 1000;

function findMessage(set: FileDescriptorSet, fullName: string): DescriptorProto | undefined {
  for (const file of set.file) {
    const prefix = file.package ? `${file.package}.` : '';
    for (const m of file.messageType) if (`${prefix}${m.name}` === fullName) return m;
  }
  return undefined;
}

function ranges(rnd: SeededRandom, n: number, shape: number): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    if (shape === 0)
      out.push([FIRST_FREE + 2 * i, FIRST_FREE + 2 * i + 1]); // distinct single numbers
    else if (shape === 1)
      out.push([FIRST_FREE + i, FIRST_FREE + i + 1 + rnd.int(50)]); // overlapping
    else out.push([FIRST_FREE, FIRST_FREE + n - i]); // nested
  }
  // shuffled: the order in the file is not the numeric order
  for (let i = out.length - 1; i > 0; i--) {
    const j = rnd.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * The saved and new sets for one case: `base` (a fixture's set) grown on one or both sides.
 * `n` is the number of ranges or names added per grown side.
 */
export function generateGrownDescriptorSets(
  base: Uint8Array,
  root: string,
  growth: DescriptorGrowth,
  n: number,
  rnd: SeededRandom,
): { saved: Uint8Array; next: Uint8Array; label: string } {
  const sides = ['saved', 'new', 'both'][rnd.int(3)]!;
  const shape = rnd.int(3);
  const grow = (set: FileDescriptorSet, merged: boolean) => {
    const message = findMessage(set, root);
    if (!message) throw new Error(`root ${root} is not in the fixture set`);
    if (growth === 'reserved-names') {
      for (let i = 0; i < n; i++) message.reservedName.push(`reserved_${i}`);
    } else if (growth === 'reserved-ranges') {
      // one side may hold the same numbers as a single merged range (the coverage check must merge)
      if (merged) message.reservedRange.push(create(DescriptorProto_ReservedRangeSchema, { start: FIRST_FREE, end: FIRST_FREE + 2 * n + 60 }));
      else for (const [start, end] of ranges(rnd, n, shape)) message.reservedRange.push(create(DescriptorProto_ReservedRangeSchema, { start, end }));
    } else {
      const target = set.file.flatMap((f) => f.enumType)[0] ?? message.enumType[0];
      if (!target) throw new Error('the fixture set declares no enum');
      for (const [start, end] of ranges(rnd, n, shape)) target.reservedRange.push(create(EnumDescriptorProto_EnumReservedRangeSchema, { start, end: end - 1 }));
    }
  };
  const saved = fromBinary(FileDescriptorSetSchema, base);
  const next = fromBinary(FileDescriptorSetSchema, base);
  const mergedSide = growth === 'reserved-ranges' && sides === 'both' && rnd.int(2) === 0 ? (rnd.int(2) === 0 ? 'saved' : 'new') : undefined;
  if (sides !== 'new') grow(saved, mergedSide === 'saved');
  if (sides !== 'saved') grow(next, mergedSide === 'new');
  const label = `${growth} ×${n} on ${sides} (shape ${shape}${mergedSide ? `, ${mergedSide} merged` : ''})`;
  return { saved: toBinary(FileDescriptorSetSchema, saved), next: toBinary(FileDescriptorSetSchema, next), label };
}

/**
 * Sets protoc would refuse, one defect each, planted in a random message field (or enum) of the
 * fixture: what `compare` once diffed as if it were a schema. Each names the element it broke, so a
 * case can check that the refusal carries its path.
 */
export const DESCRIPTOR_DEFECTS = [
  'number-zero',
  'number-negative',
  'number-too-large',
  'number-implementation-reserved',
  'type-unset',
  'type-unknown',
  'label-unknown',
  'duplicate-field-name',
  'duplicate-field-number',
  'duplicate-message',
  'message-and-enum-same-name',
  'enum-as-message-type',
  'empty-type-name',
] as const;
export type DescriptorDefect = (typeof DESCRIPTOR_DEFECTS)[number];

export interface InvalidDescriptorSet {
  bytes: Uint8Array;
  label: string;
  /** the logical path segment the refusal must name: `message X` or `field y` */
  element: string;
}

export function generateInvalidDescriptorSet(baseBytes: Uint8Array, defect: DescriptorDefect, rnd: SeededRandom): InvalidDescriptorSet {
  const set = fromBinary(FileDescriptorSetSchema, baseBytes);
  const file = set.file[set.file.length - 1]!;
  const messages = file.messageType.filter((m) => m.field.length >= 2);
  const message = messages[rnd.int(messages.length)]!;
  const i = rnd.int(message.field.length);
  const field = message.field[i]!;
  const other = message.field[(i + 1) % message.field.length]!;
  let element = `field ${field.name}`;
  switch (defect) {
    case 'number-zero':
      field.number = 0;
      break;
    case 'number-negative':
      field.number = -1 - rnd.int(1 << 30);
      break;
    case 'number-too-large':
      field.number = 536_870_912 + rnd.int(1 << 30);
      break;
    case 'number-implementation-reserved':
      field.number = 19_000 + rnd.int(1000);
      break;
    case 'type-unset':
      delete (field as { type?: number }).type;
      break;
    case 'type-unknown':
      field.type = [0, 19, 255, 1000][rnd.int(4)] as DescriptorProto['field'][number]['type'];
      break;
    case 'label-unknown':
      field.label = [0, 4, 7, 255][rnd.int(4)] as DescriptorProto['field'][number]['label'];
      break;
    case 'duplicate-field-name':
      other.name = field.name;
      element = `field ${field.name}`;
      break;
    case 'duplicate-field-number':
      other.number = field.number;
      // the later of the two in declaration order is the one refused
      element = `field ${(i + 1) % message.field.length > i ? other.name : field.name}`;
      break;
    case 'duplicate-message':
      file.messageType.push(message);
      element = `message ${message.name}`;
      break;
    case 'message-and-enum-same-name':
      file.enumType.push(
        create(EnumDescriptorProtoSchema, { name: message.name, value: [{ name: `${message.name.toUpperCase()}_ZERO_${rnd.int(1000)}`, number: 0 }] }),
      );
      element = `enum ${message.name}`;
      break;
    case 'enum-as-message-type': {
      const enumName = `FuzzEnum${rnd.int(1000)}`;
      file.enumType.push(create(EnumDescriptorProtoSchema, { name: enumName, value: [{ name: `${enumName.toUpperCase()}_ZERO`, number: 0 }] }));
      field.type = 11 as DescriptorProto['field'][number]['type'];
      field.typeName = `.${file.package ? `${file.package}.` : ''}${enumName}`;
      break;
    }
    case 'empty-type-name':
      field.type = (rnd.int(2) === 0 ? 11 : 14) as DescriptorProto['field'][number]['type'];
      field.typeName = '';
      break;
  }
  return { bytes: toBinary(FileDescriptorSetSchema, set), label: `${defect} at ${message.name}.${field.name}`, element };
}

/**
 * A set of `files` files, each importing the one before and declaring one message whose field refers to the
 * previous file's message: a long import chain that ordering and evaluation must handle in near-linear time
 * (ordering alone was quadratic: 12 s for 5,000 files, minutes for 50,000).
 */
export function generateImportChainSet(files: number): { bytes: Uint8Array; root: string } {
  const file = Array.from({ length: files }, (_, i) =>
    create(FileDescriptorProtoSchema, {
      name: `chain/f${i}.proto`,
      package: 'chain',
      syntax: 'proto3',
      dependency: i > 0 ? [`chain/f${i - 1}.proto`] : [],
      messageType: [
        {
          name: `M${i}`,
          field: [
            { name: 'x', number: 1, type: 5, label: 1, jsonName: 'x' },
            ...(i > 0 ? [{ name: 'prev', number: 2, type: 11, typeName: `.chain.M${i - 1}`, label: 1, jsonName: 'prev' }] : []),
          ],
        },
      ],
    }),
  );
  return { bytes: toBinary(FileDescriptorSetSchema, create(FileDescriptorSetSchema, { file })), root: `chain.M${files - 1}` };
}
