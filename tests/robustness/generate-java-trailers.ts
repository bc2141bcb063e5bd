/**
 * A structure-aware generator of hostile `_metadata` trailers (the Java-serialized
 * CheckpointProperties): a small java.io.ObjectOutputStream writer builds the trailer Flink writes,
 * and each case, seeded, plants one structural fault where the graph has a class descriptor, a
 * superclass or a field value: a superclass that refers to its own descriptor, a cycle of 2–6
 * descriptors through class annotations, a back-reference to a string, object, enum or array
 * where a class descriptor belongs, one to a class descriptor where an object belongs, a handle
 * past the last one or to an enum still being read. Every case is corrupt: the reader must refuse
 * it (a located DecodeError), never loop or crash.
 */
import { ByteWriter } from '../../src/core/io';
import type { SeededRandom } from './seeded-random';

const BASE_HANDLE = 0x7e0000;

/** java.io.ObjectOutputStream, as far as a trailer needs; handles are numbered as Java numbers them. */
class JavaStream {
  readonly w = new ByteWriter();
  handles: ('desc' | 'string' | 'object' | 'enum' | 'array' | 'class')[] = [];
  constructor() {
    this.w.u16(0xaced).u16(5);
  }
  private assign(kind: JavaStream['handles'][number]): number {
    this.handles.push(kind);
    return BASE_HANDLE + this.handles.length - 1;
  }
  ref(handle: number): void {
    this.w.u8(0x71).i32(handle);
  }
  nul(): void {
    this.w.u8(0x70);
  }
  string(s: string): number {
    this.w.u8(0x74).utf(s);
    return this.assign('string');
  }
  /** a class descriptor: fields `[type, name, signature?]`; `annotate` and `superClass` write what follows */
  classDesc(
    name: string,
    flags: number,
    fields: [string, string, string?][],
    superClass: (self: number) => void,
    annotate: (self: number) => void = () => undefined,
  ): number {
    this.w.u8(0x72).utf(name).i64(0x1234n);
    const self = this.assign('desc');
    this.w.u8(flags).i16(fields.length);
    for (const [type, fieldName, signature] of fields) {
      this.w.u8(type.charCodeAt(0)).utf(fieldName);
      if (signature !== undefined) this.string(signature);
    }
    annotate(self);
    this.w.u8(0x78);
    superClass(self);
    return self;
  }
  /** TC_OBJECT: the descriptor is written by `desc`, then the handle, then the field values by `values` */
  object(desc: () => void, values: (self: number) => void): number {
    this.w.u8(0x73);
    desc();
    const self = this.assign('object');
    values(self);
    return self;
  }
  enumConstant(desc: () => void, constant: string): number {
    this.w.u8(0x7e);
    desc();
    const self = this.assign('enum');
    this.string(constant);
    return self;
  }
}

export const TRAILER_FAULTS = [
  'self-superclass',
  'superclass-cycle',
  'value-as-descriptor',
  'descriptor-as-value',
  'dangling-handle',
  'enum-refers-to-itself',
] as const;
export type TrailerFault = (typeof TRAILER_FAULTS)[number];

/** Where a fault goes: the descriptor of CheckpointProperties, of SavepointType, of the enum, or java.lang.Enum. */
const SITES = ['properties', 'savepoint-type', 'format-enum', 'java-lang-enum'] as const;
type Site = (typeof SITES)[number];

const SC_SERIALIZABLE = 0x02;
const SC_ENUM = 0x10;

/**
 * One hostile trailer: Flink's CheckpointProperties(SavepointType(CANONICAL)) with `fault` planted
 * at a site chosen by `rnd`. Returns the bytes and a short label of what was planted where.
 */
export function generateHostileTrailer(fault: TrailerFault, rnd: SeededRandom): { bytes: Uint8Array; label: string } {
  const s = new JavaStream();
  const site: Site = SITES[rnd.int(SITES.length)]!;
  const cycleLength = 2 + rnd.int(5);
  let label = `${fault} at ${site}`;
  if (fault === 'superclass-cycle') label += ` (${cycleLength} descriptors)`;

  /** a back-reference to a handle of another kind than a class descriptor (for value-as-descriptor) */
  const wrongKindRef = () => {
    const candidates = s.handles.flatMap((k, i) => (k === 'desc' ? [] : [i]));
    if (candidates.length === 0) {
      // nothing but descriptors so far: a string right here, then a reference to it would sit in a descriptor slot
      s.w.u8(0x74).utf('java.lang.String');
      s.handles.push('string');
      s.ref(BASE_HANDLE + s.handles.length - 1);
      label += ' → a string written in place';
      return;
    }
    const pick = candidates[rnd.int(candidates.length)]!;
    label += ` → handle ${pick} (${s.handles[pick]})`;
    s.ref(BASE_HANDLE + pick);
  };

  /** the superclass slot of the descriptor at `here`, faulted when `here` is the chosen site */
  const superOf = (here: Site, normal: () => void) => (self: number) => {
    if (here !== site) return normal();
    switch (fault) {
      case 'self-superclass':
        return s.ref(self);
      case 'superclass-cycle':
        return writeCycle(self);
      case 'value-as-descriptor':
        return wrongKindRef();
      case 'dangling-handle':
        return s.ref(BASE_HANDLE + s.handles.length + rnd.int(1000));
      default:
        return normal();
    }
  };

  /** descriptors D2…Dk written as the superclass of `self` (D1), the last one's superclass a reference to D1 */
  const writeCycle = (first: number) => {
    const chain = (left: number): void => {
      s.classDesc(`fuzz.Cycle${left}`, SC_SERIALIZABLE, [], () => (left <= 1 ? s.ref(first) : chain(left - 1)));
    };
    chain(cycleLength - 1);
  };

  const javaLangEnum = () =>
    s.classDesc(
      'java.lang.Enum',
      SC_SERIALIZABLE | SC_ENUM,
      [],
      superOf('java-lang-enum', () => s.nul()),
    );
  const formatEnumDesc = () =>
    s.classDesc('org.apache.flink.core.execution.SavepointFormatType', SC_SERIALIZABLE | SC_ENUM, [], superOf('format-enum', javaLangEnum));
  const savepointTypeDesc = () =>
    s.classDesc(
      'org.apache.flink.runtime.checkpoint.SavepointType',
      SC_SERIALIZABLE,
      [
        ['L', 'formatType', 'Lorg/apache/flink/core/execution/SavepointFormatType;'],
        ['L', 'name', 'Ljava/lang/String;'],
      ],
      superOf('savepoint-type', () => s.nul()),
    );
  const propertiesDesc = () =>
    s.classDesc(
      'org.apache.flink.runtime.checkpoint.CheckpointProperties',
      SC_SERIALIZABLE,
      [
        ['Z', 'forced'],
        ['L', 'checkpointType', 'Lorg/apache/flink/runtime/checkpoint/SnapshotType;'],
      ],
      superOf('properties', () => s.nul()),
    );

  s.object(propertiesDesc, () => {
    s.w.u8(0); // forced
    if (fault === 'descriptor-as-value') {
      // checkpointType: a reference to one of the class descriptors written so far
      const descs = s.handles.flatMap((k, i) => (k === 'desc' ? [i] : []));
      const pick = descs[rnd.int(descs.length)]!;
      label = `${fault} → handle ${pick} (desc)`;
      s.ref(BASE_HANDLE + pick);
      return;
    }
    s.object(savepointTypeDesc, () => {
      if (fault === 'enum-refers-to-itself') {
        // the enum constant's name is a reference to the enum's own handle, reserved while it is read
        s.w.u8(0x7e);
        formatEnumDesc();
        s.handles.push('enum');
        s.ref(BASE_HANDLE + s.handles.length - 1);
        label = fault;
      } else {
        s.enumConstant(formatEnumDesc, 'CANONICAL');
      }
      s.string('Savepoint');
    });
  });
  return { bytes: s.w.finish(), label };
}
