/**
 * The value warnings' reader of saved Protobuf values, on the structural scan: the Protobuf
 * snapshot readers' value codec scans each frame with a field log instead of building the message
 * tree, and hands `sink` what summarizeProtobufValue would have made of the full decode. A value the
 * log cannot mirror exactly — unreadable, written out of order or with reused numbers, a field number
 * above the limit, or any value of a schema with closed enums — is read by the full decoder instead,
 * so the warnings and every error (text, offset) are the decoder's.
 */
import type { DescMessage } from '@bufbuild/protobuf';
import type { DecodedValue, SnapshotRegistry } from '../flink';
import {
  buildProtobufScanIndex,
  createEmptyScan,
  createProtobufFieldLog,
  listLoggedFields,
  readProtobufFrame,
  registerWrappedProtobufSnapshotReaders,
  scanProtobufPayloadInto,
  type ProtobufScanIndex,
  type ProtobufScanOptions,
} from '../protobuf';
import { identifyProtobufSchema } from './identify-protobuf-schema';
import { summarizeProtobufValue } from './scan-protobuf-state-values';
import type { ScannedValue } from './value-scan-types';

/** A scanned value before its entry's key is known, with where its frame starts (absolute, as StateEntry.valueRange). */
export type UnkeyedScannedValue = Omit<ScannedValue, 'key'> & { frameOffset: number; file: string | undefined; /** identifyProtobufSchema of the type it was read with */ schema: string };

/** What an entry carries as its value in this scan: the payload went to the warnings instead. */
const SCANNED: DecodedValue = Object.freeze({ kind: 'other', type: 'Protobuf frame', text: 'scanned for the value warnings, not decoded' });

export function registerValueScanningReaders(registry: SnapshotRegistry, sink: (value: UnkeyedScannedValue) => void): void {
  const scans = new Map<DescMessage, { index: ProtobufScanIndex; exact: boolean }>();
  const out = createEmptyScan();
  const log = createProtobufFieldLog();
  registerWrappedProtobufSnapshotReaders(registry, (inner) => {
    const content = inner.content;
    const root = content.schema.root;
    let scan = scans.get(root);
    if (scan === undefined) scans.set(root, (scan = { index: buildProtobufScanIndex(root), exact: !hasClosedEnums(root) }));
    const { index, exact } = scan;
    const schema = identifyProtobufSchema(content);
    const options: ProtobufScanOptions = { maxMessageSize: content.settings.maxMessageSize, recursionLimit: content.settings.recursionLimit, fieldLog: log };
    const decodeFully = (r: Parameters<typeof inner.decodeDetailed>[0]): DecodedValue => {
      const frameOffset = r.absolutePosition;
      const d = inner.decodeDetailed(r);
      const { key: _key, ...value } = summarizeProtobufValue('', d);
      sink({ ...value, frameOffset, file: r.file, schema });
      return SCANNED;
    };
    return {
      decode(r): DecodedValue {
        if (!exact) return decodeFully(r);
        const start = r.position;
        const frameOffset = r.absolutePosition;
        let frame;
        try {
          frame = readProtobufFrame(r, content.settings.maxMessageSize);
        } catch {
          r.seek(start);
          return decodeFully(r);
        }
        options.frameLength = frame.length;
        scanProtobufPayloadInto(out, frame.payload, index, options);
        if (out.error !== undefined || log.needsFullDecode || out.reusedDeclaredNumbers > 0 || out.numbersTooLarge > 0) {
          r.seek(start);
          return decodeFully(r);
        }
        const fields = listLoggedFields(index, log);
        sink({ payloadSize: out.payloadSize, depth: out.depth, unknownFields: fields.unknown, knownFields: fields.known, frameOffset, file: r.file, schema });
        return SCANNED;
      },
    };
  });
}

/** Whether any message reachable from `root` has a field, list or map value of a closed enum. */
function hasClosedEnums(root: DescMessage): boolean {
  const seen = new Set<DescMessage>([root]);
  const queue = [root];
  for (let i = 0; i < queue.length; i++) {
    for (const f of queue[i]!.fields) {
      const closed = (f.fieldKind === 'enum' || (f.fieldKind === 'list' && f.listKind === 'enum') || (f.fieldKind === 'map' && f.mapKind === 'enum')) && f.enum !== undefined && !f.enum.open;
      if (closed) return true;
      const child = f.fieldKind === 'message' || (f.fieldKind === 'list' && f.listKind === 'message') || (f.fieldKind === 'map' && f.mapKind === 'message') ? f.message : undefined;
      if (child !== undefined && !seen.has(child)) {
        seen.add(child);
        queue.push(child);
      }
    }
  }
  return false;
}
