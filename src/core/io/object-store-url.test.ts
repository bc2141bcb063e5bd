import { describe, expect, it } from 'vitest';
import { formatS3Url, isObjectStoreUrl, isS3Url, parseS3Url, unsupportedStoreError } from './object-store-url';

describe('S3 URLs', () => {
  it('parses s3://, s3a:// and s3p:// alike, the key without its leading /', () => {
    expect(parseS3Url('s3://bucket/flink/savepoints/savepoint-1')).toEqual({ scheme: 's3', bucket: 'bucket', key: 'flink/savepoints/savepoint-1' });
    expect(parseS3Url('S3A://my.bucket/ckpt/')).toEqual({ scheme: 's3a', bucket: 'my.bucket', key: 'ckpt/' });
    expect(parseS3Url('s3p://b-1')).toEqual({ scheme: 's3p', bucket: 'b-1', key: '' });
    expect(formatS3Url('b', 'k/x')).toBe('s3://b/k/x');
  });

  it('refuses a URL without a usable bucket, or with a query', () => {
    expect(() => parseS3Url('s3:///key')).toThrow('expected a bucket name in s3:///key (3 to 63 letters, digits, \'.\', \'-\' or \'_\'), found none');
    expect(() => parseS3Url('s3://a/key')).toThrow('found "a"');
    expect(() => parseS3Url('s3://bucket/key?versionId=1')).toThrow('expected an S3 URL s3://BUCKET/KEY without ? or #, found s3://bucket/key?versionId=1');
    expect(() => parseS3Url('https://bucket/key')).toThrow('expected an S3 URL (s3://, s3a:// or s3p://), found https://bucket/key');
  });

  it('recognises the other stores Flink writes to, with a message instead of a local path', () => {
    expect(isS3Url('s3a://b/k')).toBe(true);
    expect(isS3Url('gs://b/k')).toBe(false);
    for (const url of ['gs://b/k', 'abfss://c@a.dfs.core.windows.net/k', 'wasbs://c@a/k', 'oss://b/k', 'hdfs://nn:8020/ckpt']) {
      expect(isObjectStoreUrl(url)).toBe(true);
      expect(unsupportedStoreError(url)?.message).toMatch(/^expected a savepoint on local disk, over http\(s\) or in S3 \(s3:\/\/, s3a:\/\/, s3p:\/\/\), found a \w+:\/\/ URL: this store is not read directly yet/);
    }
    expect(unsupportedStoreError('s3://b/k')).toBeUndefined();
    expect(unsupportedStoreError('/tmp/gs:/x')).toBeUndefined();
  });
});
