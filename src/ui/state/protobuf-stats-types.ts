import type { StateStatsDetail } from '../../worker';

/** The Protobuf scan summary as the app receives it (StateStats.protobuf). */
export type ProtobufStateScanSummaryView = NonNullable<StateStatsDetail['protobuf']>;
