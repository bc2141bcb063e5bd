/**
 * Which saved Protobuf type a value was read with: its root message and the SHA-256 of its saved
 * descriptors. A state can hold several Protobuf types (a Protobuf key or map key next to a Protobuf
 * value); the value scan hands each value to the serializers of that type only.
 */
export function identifyProtobufSchema(content: { readonly rootFullName: string; readonly descriptorSha256: string }): string {
  return `${content.rootFullName}\n${content.descriptorSha256}`;
}
