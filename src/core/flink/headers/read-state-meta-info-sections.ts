import { isDecodeError, isModifiedUtf8StringAt, type ByteReader, type DecodeError } from '../../io';
import type { StateMetaInfo } from '../savepoint/inspection-types';
import { createUnknownTopLevelSnapshot, describeUnknownSerializer, readSerializerSnapshot } from '../snapshots/read-serializer-snapshot';
import { inferUnknownTopLevelSnapshot } from '../snapshots/infer-unknown-snapshot';
import { createStateMetaInfo, readStateMetaInfoPrefix, type StateMetaInfoPrefix } from './read-state-meta-info';
import type { SnapshotRegistry } from '../snapshots/snapshot-types';
import type { SerializerSnapshot } from '../snapshots/snapshot-types';

/** Upper bound on positions tried while resynchronising after unknown snapshots. */
const MAX_RESYNC_ATTEMPTS = 200_000;
const MAX_STATES = 32767;

export interface MetaInfoSectionsResult {
  sections: StateMetaInfo[][];
  /** one line per unknown snapshot skipped by resynchronisation */
  warnings: string[];
}

interface Partial {
  prefix: StateMetaInfoPrefix;
  serializers: Record<string, SerializerSnapshot>;
}

/**
 * Reads `sectionCount` sections of `i16 n` + n state meta infos. An unknown
 * serializer snapshot cannot be skipped by itself (no length prefix); when `fence` (the absolute
 * offset where the header must end) is given, the reader records the unknown snapshot
 * and resynchronises: it tries each later position as the start of what follows and accepts the
 * first one from which the rest of the header parses and ends exactly at the fence.
 * Without a fence, or when no position fits, the `unknown-serializer` DecodeError is thrown.
 */
export function readStateMetaInfoSections(r: ByteReader, registry: SnapshotRegistry, sectionCount: number, fence?: Fence): MetaInfoSectionsResult {
  const parser = new SectionsParser(r, registry, sectionCount, fence);
  parser.parseSections(0);
  return { sections: parser.sections, warnings: parser.warnings };
}

/** Absolute offset(s) where a header may end (several when e.g. a Snappy identifier chunk may follow it). */
export type Fence = number | readonly number[];

export function isAtFence(r: ByteReader, fence: Fence): boolean {
  return typeof fence === 'number' ? r.absolutePosition === fence : fence.includes(r.absolutePosition);
}

/**
 * Runs `parse` at every position after `from` until one parses to the fence. For callers that hit an
 * unknown snapshot before the sections. `failed` (optional) remembers the positions known not to parse
 * to the fence: parsing from a position is deterministic, so a nested resynchronisation never tries a
 * position twice (without it, each unknown snapshot multiplied the work of the ones before it).
 */
export function resyncToFence<T>(r: ByteReader, from: number, fence: Fence, parse: () => T, failed?: Set<number>, startsWithString = false): T | undefined {
  const last = typeof fence === 'number' ? fence : Math.max(...fence);
  const limit = Math.min(last - r.baseOffset, r.length);
  // almost every attempt ends in a DecodeError that is dropped at once: V8 need not capture its stack
  // (that capture was most of the time spent here); restored before anything leaves this function
  const errors = Error as { stackTraceLimit?: number };
  const stackTraceLimit = errors.stackTraceLimit;
  errors.stackTraceLimit = 0;
  try {
    for (let p = from, n = 0; p <= limit && n < MAX_RESYNC_ATTEMPTS; p++, n++) {
      if (failed?.has(p)) continue;
      // what follows starts with a string: a position where none could be read cannot be the place
      if (startsWithString && !isModifiedUtf8StringAt(r.bytes, p, r.length)) continue;
      r.seek(p);
      try {
        const out = parse();
        if (isAtFence(r, fence)) return out;
      } catch (e) {
        if (!isDecodeError(e)) throw e;
      }
      failed?.add(p);
    }
    return undefined;
  } finally {
    errors.stackTraceLimit = stackTraceLimit;
  }
}

class SectionsParser {
  sections: StateMetaInfo[][] = [];
  warnings: string[] = [];
  private resyncDepth = 0;
  /** per unknown snapshot start and resumed position: what the inferrers made of it (undefined: nothing) */
  private readonly inferred = new Map<string, SerializerSnapshot | undefined>();
  /** per resume point (section, its state count, state, its serializer count, next serializer): the positions from which the rest of the header does not parse to the fence */
  private readonly failedStarts = new Map<string, Set<number>>();

  constructor(
    private readonly r: ByteReader,
    private readonly registry: SnapshotRegistry,
    private readonly sectionCount: number,
    private readonly fence: Fence | undefined,
  ) {}

  parseSections(from: number): void {
    for (let s = from; s < this.sectionCount; s++) {
      const at = this.r.position;
      const n = this.r.readI16('number of states');
      if (n < 0) throw this.r.error('invalid-value', `expected a number of states between 0 and ${MAX_STATES}, found ${n}`, at);
      this.sections.push([]);
      if (n > 0) {
        this.parseStates(s, n, 0);
        return; // parseStates continues with the following sections
      }
    }
    if (this.resyncDepth > 0 && this.fence !== undefined && !isAtFence(this.r, this.fence)) {
      throw this.r.error('invalid-value', `expected the header to end at the fence ${String(this.fence)}, found its end at ${this.r.absolutePosition}`);
    }
  }

  private parseStates(section: number, n: number, from: number): void {
    for (let i = from; i < n; i++) {
      const prefix = readStateMetaInfoPrefix(this.r);
      const partial: Partial = { prefix, serializers: {} };
      if (!this.parseSerializers(section, n, i, partial, 0)) return;
    }
    this.parseSections(section + 1);
  }

  /** Reads serializers j.. of state i; returns false when a resync already parsed the rest. */
  private parseSerializers(section: number, n: number, i: number, partial: Partial, from: number): boolean {
    for (let j = from; j < partial.prefix.serializerCount; j++) {
      const key = this.r.readUtf(`serializer key of state ${partial.prefix.name}`);
      const at = this.r.position;
      try {
        partial.serializers[key] = readSerializerSnapshot(this.r, this.registry);
      } catch (e) {
        const unknown = isDecodeError(e) ? describeUnknownSerializer(e) : undefined;
        if (!unknown || this.fence === undefined) throw e;
        const record = createUnknownTopLevelSnapshot(this.r, at, e as DecodeError, unknown);
        partial.serializers[key] = record;
        const end = this.resync(e as DecodeError, at, section, n, i, partial, j + 1);
        // the resynchronisation bounded the unknown snapshot: an inferrer may recognise its bytes now
        // a nested resynchronisation meets the same unknown snapshot in each of its attempts: infer it once
        const inferKey = `${at}|${end}`;
        if (!this.inferred.has(inferKey)) this.inferred.set(inferKey, inferUnknownTopLevelSnapshot(this.r, this.registry, at, end, unknown.className));
        const inferred = this.inferred.get(inferKey);
        if (inferred !== undefined) {
          const meta = this.sections[section]?.find((m) => m.serializers[key] === record);
          if (meta !== undefined) {
            meta.serializers[key] = inferred;
            const skipped = this.warnings.findIndex((w) => w.startsWith(`state ${partial.prefix.name}: `) && w.includes(unknown.className));
            if (skipped >= 0)
              this.warnings[skipped] =
                `state ${partial.prefix.name}: ${(e as DecodeError).detail} read by structure (inferred, not exact: see the snapshot's inferred details)`;
          }
        }
        return false;
      }
    }
    this.sections[section]!.push(createStateMetaInfo(partial.prefix, partial.serializers));
    return true;
  }

  private failedStartsOf(key: string): Set<number> {
    let set = this.failedStarts.get(key);
    if (set === undefined) this.failedStarts.set(key, (set = new Set()));
    return set;
  }

  /** Resynchronises past the unknown snapshot at `at`; returns the position where the rest of the header was found to start. */
  private resync(error: DecodeError, at: number, section: number, n: number, i: number, partial: Partial, nextSerializer: number): number {
    const saved = this.sections.map((s) => s.slice());
    const savedWarnings = this.warnings.slice();
    this.resyncDepth++;
    let resumedAt = -1;
    try {
      const found = resyncToFence(
        this.r,
        at + 12,
        this.fence!,
        () => {
          resumedAt = this.r.position;
          this.sections = saved.map((s) => s.slice());
          this.warnings = savedWarnings.slice();
          const copy: Partial = { prefix: partial.prefix, serializers: { ...partial.serializers } };
          if (this.parseSerializers(section, n, i, copy, nextSerializer)) this.parseStates(section, n, i + 1);
          return true;
        },
        this.failedStartsOf(`${section}|${n}|${i}|${partial.prefix.serializerCount}|${nextSerializer}`),
        nextSerializer < partial.prefix.serializerCount || i + 1 < n,
      );
      if (!found) throw error;
      this.warnings.unshift(`state ${partial.prefix.name}: ${error.detail} skipped by resynchronising on the header fence`);
      return resumedAt;
    } finally {
      this.resyncDepth--;
    }
  }
}
