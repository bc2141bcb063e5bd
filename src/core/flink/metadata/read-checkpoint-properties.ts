/**
 * Reads the V4+ `_metadata` trailer: a Java-serialized `CheckpointProperties` whose
 * `checkpointType` is a `SavepointType` (name, formatType CANONICAL/NATIVE) or a `CheckpointType`.
 * When the stream uses Java serialization features this reader does not handle, it falls back to
 * scanning the bytes for the class names and enum constants, and says so in `warning`. A stream
 * that is corrupt rather than unfamiliar (truncated, wrong magic, an `invalid-value`: a dangling
 * back-reference or one to the wrong kind of handle, a superclass cycle) is refused, as Flink's
 * ObjectInputStream refuses it.
 */
import { ByteReader, isDecodeError } from '../../io';
import { readJavaSerializedObject, type JavaValue } from '../values/read-java-object-stream';
import type { CheckpointProperties } from './metadata-types';

const PROPERTIES_CLASS = 'org.apache.flink.runtime.checkpoint.CheckpointProperties';

/** `bytes` = the trailer (from after the last operator state to the end of `_metadata`). */
export function readCheckpointProperties(bytes: Uint8Array, file = '_metadata', baseOffset = 0): CheckpointProperties {
  const r = new ByteReader(bytes, { file, baseOffset, path: ['checkpoint properties'] });
  if (bytes.length === 0) {
    throw r.error('truncated', 'expected the checkpoint properties (a Java serialization stream) after the operator states, found the end of the file');
  }
  let root: JavaValue;
  try {
    root = readJavaSerializedObject(r);
  } catch (e) {
    if (!isDecodeError(e) || e.code === 'truncated' || e.code === 'bad-magic' || e.code === 'invalid-value') throw e;
    return { ...scanCheckpointProperties(bytes), warning: `checkpoint properties read by scanning, the Java object could not be parsed: ${e.message}` };
  }
  // a null is valid: Flink's reader takes it as "no properties" (the State Processor API writes one)
  if (root.kind === 'null') {
    const props: CheckpointProperties = { type: 'unknown', trailerSize: bytes.length, trailerOffset: baseOffset };
    if (!r.atEnd) props.warning = `${r.remaining} unexpected bytes after the checkpoint properties`;
    return props;
  }
  if (root.kind !== 'object' || root.className !== PROPERTIES_CLASS) {
    const found = root.kind === 'object' ? root.className : `a ${root.kind}`;
    throw r.error('invalid-value', `expected a ${PROPERTIES_CLASS} object, found ${found}`, 0);
  }
  const props = describeCheckpointType(root.fields['checkpointType'], bytes.length, baseOffset);
  if (!r.atEnd) props.warning = `${r.remaining} unexpected bytes after the checkpoint properties`;
  return props;
}

function describeCheckpointType(t: JavaValue | undefined, trailerSize: number, trailerOffset: number): CheckpointProperties {
  if (t === undefined || t.kind !== 'object') {
    return { type: 'unknown', trailerSize, trailerOffset, warning: `checkpoint properties without a checkpointType object (found ${t?.kind ?? 'nothing'})` };
  }
  const name = t.fields['name'];
  const props: CheckpointProperties = { type: 'unknown', trailerSize, trailerOffset, snapshotTypeClass: t.className };
  if (name?.kind === 'string') props.name = name.value;
  if (t.className.endsWith('.SavepointType')) {
    props.type = 'savepoint';
    const format = t.fields['formatType'];
    if (format?.kind === 'enum' && (format.constant === 'CANONICAL' || format.constant === 'NATIVE')) props.formatType = format.constant;
  } else if (t.className.endsWith('.CheckpointType')) {
    props.type = 'checkpoint';
  }
  return props;
}

/** Fallback: the class names and enum constants appear as plain ASCII in the stream. */
export function scanCheckpointProperties(bytes: Uint8Array): CheckpointProperties {
  let text = '';
  for (const b of bytes) text += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : ' ';
  const props: CheckpointProperties = { type: 'unknown', trailerSize: bytes.length };
  if (text.includes('checkpoint.SavepointType')) props.type = 'savepoint';
  else if (text.includes('checkpoint.CheckpointType')) props.type = 'checkpoint';
  if (props.type === 'savepoint') {
    if (/\bCANONICAL\b/.test(text)) props.formatType = 'CANONICAL';
    else if (/\bNATIVE\b/.test(text)) props.formatType = 'NATIVE';
  }
  const name = findSerializedString(bytes, SNAPSHOT_NAMES);
  if (name !== undefined) props.name = name;
  return props;
}

const SNAPSHOT_NAMES = ['Savepoint', 'Suspend Savepoint', 'Terminate Savepoint', 'Checkpoint', 'Full Checkpoint'];

/** First TC_STRING (0x74, u16 length, bytes) in the stream whose text is one of `candidates`. */
function findSerializedString(bytes: Uint8Array, candidates: readonly string[]): string | undefined {
  for (let i = 0; i + 3 <= bytes.length; i++) {
    if (bytes[i] !== 0x74) continue;
    const n = (bytes[i + 1]! << 8) | bytes[i + 2]!;
    if (n === 0 || n > 32 || i + 3 + n > bytes.length) continue;
    let s = '';
    for (let k = 0; k < n; k++) s += String.fromCharCode(bytes[i + 3 + k]!);
    if (candidates.includes(s)) return s;
  }
  return undefined;
}
