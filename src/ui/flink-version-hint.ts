/**
 * Which Flink releases write a `_metadata` format version. Flink's `MetadataV6Serializer`
 * (ChannelStateHandleSerializerV2) is still what 2.3.0 writes (the committed Flink 2.3.0
 * savepoints and checkpoints in `fixtures/` hold version 6); `MetadataV7Serializer` (a regional
 * checkpoint's reference id) came after 2.3.
 */
export function describeFlinkVersionHint(metadataVersion: number): string {
  switch (metadataVersion) {
    case 3:
      return 'Flink 1.15 or older';
    case 4:
      return 'Flink 1.16 – 1.20';
    case 5:
      return 'Flink 2.0';
    case 6:
      return 'Flink 2.1 – 2.3';
    case 7:
      return 'a Flink release newer than 2.3';
    default:
      return 'unknown Flink release';
  }
}
