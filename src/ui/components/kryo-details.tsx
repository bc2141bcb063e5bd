import type { KryoSnapshotDetails } from '../../core/flink';
import { useAppStore } from '../state/app-store';

interface KryoProtobuf {
  kind: 'chill' | 'plain';
  how: string;
  messageType?: string;
}

/**
 * The Kryo configuration a KryoSerializerSnapshot saved (registrations in Kryo id order, Flink's ids from 85; default
 * serializers and default serializer classes) and whether its values are Protobuf behind Kryo or the plain-Kryo hazard.
 */
export function KryoDetails({ kryo, protobuf, decodable }: { kryo: KryoSnapshotDetails; protobuf?: KryoProtobuf; decodable: boolean }) {
  // the inspection reads headers without the schema: with one dropped, the Values view decodes what it maps
  const schema = useAppStore((s) => s.session?.descriptorSetName ?? null);
  const defaults = [
    ...kryo.defaultSerializers.map((d) => ({ ...d, what: 'instance' })),
    ...kryo.defaultSerializerClasses.map((d) => ({ ...d, what: 'class' })),
  ];
  return (
    <div className="kryo-details scroll-x" data-testid="kryo-details">
      {protobuf ? (
        <p className={protobuf.kind === 'plain' ? 'tag bad' : 'tag warn'} data-testid="kryo-protobuf">
          {protobuf.kind === 'chill' ? 'Protobuf behind Kryo (chill-protobuf)' : 'Hazard: a Protobuf class held by plain Kryo (FieldSerializer)'}:{' '}
          {protobuf.how}
          {protobuf.messageType ? `; message ${protobuf.messageType}` : ''}
          {protobuf.kind === 'chill' && !decodable
            ? schema
              ? `; the Values view decodes them with ${schema} where it has a message of this class`
              : '; drop the job’s descriptor set to decode the values'
            : ''}
        </p>
      ) : null}
      <table className="grid">
        <thead>
          <tr>
            <th>Kryo id</th>
            <th>registered class</th>
            <th>kind</th>
            <th>serializer</th>
          </tr>
        </thead>
        <tbody>
          {kryo.registrations.map((r, i) => (
            <tr key={i}>
              <td className="mono">{85 + i}</td>
              <td className="mono">{r.registeredClass ?? r.name}</td>
              <td>{r.kind ?? 'not loadable when written'}</td>
              <td className="mono">{r.serializerClass ?? '—'}</td>
            </tr>
          ))}
          {defaults.map((d, i) => (
            <tr key={`d${i}`}>
              <td className="muted">default</td>
              <td className="mono">{d.forClass}</td>
              <td>default serializer {d.what}</td>
              <td className="mono">{d.serializerClass ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
