/**
 * `merge-stats <shard.json>…`: the whole run's `stats --format json` from the shard files of
 * `stats --key-groups A-B --format json` (merge-stats-shards.ts), refused (exit 2) when they do not
 * make one whole.
 */
import { readFile } from 'node:fs/promises';
import { wrongInput } from '../../core/io';
import { CliUsageError, EXIT_OK, type CliCommand } from '../cli-types';
import { formatJsonDocument } from '../parse-cli-values';
import { checkShardsMakeWhole, mergeStatsShards, readStatsShard, type StatsShardFile } from './merge-stats-shards';
import { describeStats } from './stats-command';

export const mergeStatsCommand: CliCommand = {
  name: 'merge-stats',
  summary: "the whole savepoint's stats --format json from the shard files of stats --key-groups",
  usage: [
    'Usage: savepoint-inspector merge-stats <shard.json> <shard.json>... ',
    '',
    'Each file is the output of `stats <savepoint> --key-groups A-B --format json`; together they must',
    'cover key groups 0 to max parallelism - 1 once each, of one savepoint, schema and tool version.',
    '',
    'Options:',
    '  -h, --help           show this help',
  ].join('\n'),
  quiet: 'the same JSON document (it is the output)',
  options: {},
  async run({ positionals }, io) {
    if (positionals.length === 0) throw new CliUsageError('expected the shard files of stats --key-groups A-B --format json');
    const files = new Map<string, StatsShardFile>();
    for (const name of positionals) {
      let text: string;
      try {
        text = await readFile(name, 'utf8');
      } catch (e) {
        throw wrongInput('bad-path', `cannot read ${name}: ${(e as { code?: string }).code ?? String(e)}`);
      }
      if (files.has(name)) throw new CliUsageError(`${name} is named twice`);
      files.set(name, readStatsShard(name, text));
    }
    const shards = checkShardsMakeWhole([...files].map(([name, doc]) => ({ name, header: doc.shard })));
    io.stdout(formatJsonDocument(describeStats(mergeStatsShards(shards, files))));
    return EXIT_OK;
  },
};
