/** The CLI's scans over worker threads: `stats`, and `check`'s value scan. */
export { statsCommand } from './stats-command';
export { mergeStatsCommand } from './merge-stats-command';
export { countScanWorkers, MAX_SCAN_WORKERS } from './count-scan-workers';
export { createParallelValueScanner, type WorkerCheckInput } from './run-parallel-value-scan';
export { runParallelScan, type ParallelScanOptions, type ParallelScanResult } from './run-parallel-scan';
export {
  checkShardRange,
  describeSavepointIdentity,
  identifySavepoint,
  parseKeyGroupRange,
  parseOperatorStateFlag,
  sha256Hex,
  TOOL_VERSION,
  type KeyGroupRange,
} from './shard-identity';
export { checkShardsMakeWhole, type NamedShard, type ShardHeaderBase } from './merge-stats-shards';
