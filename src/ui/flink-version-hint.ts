/** Which Flink releases write a `_metadata` format version. */
export function describeFlinkVersionHint(metadataVersion: number): string {
  switch (metadataVersion) {
    case 3:
      return 'Flink 1.15 or older';
    case 4:
      return 'Flink 1.16 – 1.20';
    case 5:
      return 'Flink 2.0';
    case 6:
      return 'Flink 2.1 – 2.2';
    case 7:
      return 'a Flink release newer than 2.2';
    default:
      return 'unknown Flink release';
  }
}
