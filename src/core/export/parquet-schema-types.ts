/** A Parquet schema as a tree (the flat SchemaElement list of the file footer is derived from it). */
export type ParquetPhysicalType = 'BOOLEAN' | 'INT32' | 'INT64' | 'FLOAT' | 'DOUBLE' | 'BYTE_ARRAY';
export type ParquetRepetition = 'REQUIRED' | 'OPTIONAL' | 'REPEATED';

export interface ParquetNode {
  name: string;
  repetition: ParquetRepetition;
  /** Parquet field id (parquet-protobuf: the Protobuf field number) */
  fieldId?: number;
  /** leaves only */
  type?: ParquetPhysicalType;
  /** STRING/ENUM on leaves, LIST/MAP on groups */
  logical?: 'STRING' | 'ENUM' | 'LIST' | 'MAP';
  /** groups only */
  children?: ParquetNode[];
}
