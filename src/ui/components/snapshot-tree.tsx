import type { KryoSnapshotDetails, SerializerSnapshot } from '../../core/flink';
import { KRYO_SNAPSHOT_CLASS } from '../../worker';
import { KryoDetails } from './kryo-details';
import { SavedSchemaButton } from './saved-schema-button';

const MAX_DEPTH = 12;

/** A serializer snapshot and its nested snapshots: class, version, readable type, details. */
export function SnapshotTree({ snapshot, depth = 0 }: { snapshot: SerializerSnapshot; depth?: number }) {
  const kryo = kryoDetailsOf(snapshot);
  const kryoProtobuf = kryo ? (snapshot.details?.['protobuf'] as Parameters<typeof KryoDetails>[0]['protobuf']) : undefined;
  // a Kryo snapshot's configuration has its own table
  const details = kryo ? Object.fromEntries(Object.entries(snapshot.details ?? {}).filter(([k]) => k !== 'kryo' && k !== 'protobuf')) : snapshot.details;
  return (
    <div className="snapshot" data-testid="snapshot">
      <div className="snapshot-head">
        <span className="snapshot-type">{snapshot.typeLabel}</span>
        <span className={`tag ${snapshot.status === 'known' ? 'ok' : snapshot.status === 'opaque' ? 'warn' : 'bad'}`}>{snapshot.status}</span>
        {snapshot.details?.['inferred'] ? (
          <span className="tag warn" title="read by structure from a snapshot class no reader knows: not exact" data-testid="snapshot-inferred">
            inferred
          </span>
        ) : null}
        <span className="muted"> v{snapshot.version}</span>
        {snapshot.fixedLength >= 0 ? <span className="muted"> · {snapshot.fixedLength} bytes fixed</span> : null}
      </div>
      <div className="snapshot-class mono" title="Snapshot class">
        {snapshot.className}
      </div>
      {snapshot.range ? (
        <div className="muted small mono">
          {snapshot.file ?? ''} @ {snapshot.range.offset} (+{snapshot.range.length} bytes)
        </div>
      ) : null}
      {kryo ? <KryoDetails kryo={kryo} {...(kryoProtobuf ? { protobuf: kryoProtobuf } : {})} decodable={snapshot.status === 'known'} /> : null}
      {details && Object.keys(details).length > 0 ? <DetailsTable details={details} /> : null}
      {typeof snapshot.details?.['descriptorSha256'] === 'string' && typeof snapshot.details['rootFullName'] === 'string' ? (
        <SavedSchemaButton sha256={snapshot.details['descriptorSha256']} root={snapshot.details['rootFullName']} />
      ) : null}
      {snapshot.nested.length > 0 ? (
        depth >= MAX_DEPTH ? (
          <div className="muted">
            … {snapshot.nested.length} nested snapshots (deeper than {MAX_DEPTH} levels)
          </div>
        ) : (
          <div className="snapshot-nested">
            {snapshot.nested.map((n, i) => (
              <SnapshotTree key={i} snapshot={n} depth={depth + 1} />
            ))}
          </div>
        )
      ) : null}
    </div>
  );
}

function DetailsTable({ details }: { details: Record<string, unknown> }) {
  return (
    <dl className="kv details">
      {Object.entries(details).map(([k, v]) => (
        <div key={k} className="kv-row">
          <dt>{k}</dt>
          <dd className="mono">{renderDetail(v)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Details are JSON-friendly; long lists and objects are shown as compact JSON text. */
function renderDetail(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (v === null || v === undefined) return '—';
  try {
    return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x), 1);
  } catch {
    return String(v);
  }
}

/** The Kryo configuration a Kryo snapshot's details carry (as core/flink getKryoSnapshotDetails reads them), else undefined. */
function kryoDetailsOf(snapshot: SerializerSnapshot): KryoSnapshotDetails | undefined {
  if (snapshot.className !== KRYO_SNAPSHOT_CLASS || !snapshot.details) return undefined;
  const kryo = snapshot.details['kryo'];
  return kryo && typeof kryo === 'object' ? (kryo as KryoSnapshotDetails) : undefined;
}
