import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { KryoDetails } from './kryo-details';

const CHILL = 'com.twitter.chill.protobuf.ProtobufSerializer';

describe('KryoDetails', () => {
  it('lists registrations with their Kryo ids, kinds and serializers, the defaults and Protobuf behind Kryo', () => {
    const html = renderToStaticMarkup(
      createElement(KryoDetails, {
        kryo: {
          typeClass: 'a.Event',
          registrations: [{ name: 'a.Event', registeredClass: 'a.Event', kind: 'CLASS', serializerClass: CHILL }, { name: 'a.Gone' }],
          defaultSerializers: [],
          defaultSerializerClasses: [{ forClass: 'com.google.protobuf.Message', serializerClass: CHILL }],
        },
        protobuf: { kind: 'chill', how: `a.Event registered with ${CHILL} (CLASS)` },
        decodable: false,
      }),
    );
    expect(html).toContain(
      '<td class="mono">85</td><td class="mono">a.Event</td><td>CLASS</td><td class="mono">com.twitter.chill.protobuf.ProtobufSerializer</td>',
    );
    expect(html).toContain('<td class="mono">86</td><td class="mono">a.Gone</td><td>not loadable when written</td>');
    expect(html).toContain('<td class="mono">com.google.protobuf.Message</td><td>default serializer class</td>');
    expect(html).toContain(
      'Protobuf behind Kryo (chill-protobuf): a.Event registered with com.twitter.chill.protobuf.ProtobufSerializer (CLASS); drop the job’s descriptor set to decode the values',
    );
  });

  it('names the plain-Kryo hazard', () => {
    const html = renderToStaticMarkup(
      createElement(KryoDetails, {
        kryo: { typeClass: 'a.Event', registrations: [], defaultSerializers: [], defaultSerializerClasses: [] },
        protobuf: { kind: 'plain', how: 'no Kryo serializer', messageType: 'x.Event' },
        decodable: false,
      }),
    );
    expect(html).toContain('Hazard: a Protobuf class held by plain Kryo (FieldSerializer): no Kryo serializer; message x.Event');
  });
});
