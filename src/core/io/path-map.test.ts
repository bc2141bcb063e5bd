import { describe, expect, it } from 'vitest';
import { applyPathMap, canonicalHandlePath, localPathOf, parsePathMapping } from './path-map';

describe('--path-map', () => {
  it('parses FROM=TO at the first =', () => {
    expect(parsePathMapping('s3://old/ckpt/=file:///mnt/copy/')).toEqual({ from: 's3://old/ckpt/', to: 'file:///mnt/copy/' });
    expect(parsePathMapping('s3://b/a=b/=s3://c/')).toEqual({ from: 's3://b/a', to: 'b/=s3://c/' });
    expect(() => parsePathMapping('s3://old/')).toThrow('--path-map expects FROM=TO (e.g. s3://old-bucket/ckpt/=file:///mnt/copy/), found s3://old/');
    expect(() => parsePathMapping('=x')).toThrow('found =x');
  });

  it('maps the longest matching prefix, in whole segments when FROM has no trailing /', () => {
    const maps = [parsePathMapping('s3://old/ckpt/=file:///mnt/copy/'), parsePathMapping('s3://old/ckpt/job-1=s3://new/j1')];
    expect(applyPathMap('s3://old/ckpt/job-2/shared/u', maps)).toBe('file:///mnt/copy/job-2/shared/u');
    expect(applyPathMap('s3://old/ckpt/job-1/shared/u', maps)).toBe('s3://new/j1/shared/u');
    expect(applyPathMap('s3://old/ckpt/job-10/shared/u', maps)).toBe('file:///mnt/copy/job-10/shared/u');
    expect(applyPathMap('s3://other/ckpt/x', maps)).toBeUndefined();
    expect(applyPathMap('s3://old/ckpt/job-1', maps)).toBe('s3://new/j1');
  });

  it('compares s3a:// and s3p:// as s3://, and file:/x, file:///x and /x as one local path', () => {
    expect(canonicalHandlePath('s3a://b/k')).toBe('s3://b/k');
    expect(canonicalHandlePath('file:///tmp/x')).toBe('file:/tmp/x');
    expect(canonicalHandlePath('file://localhost/tmp/x')).toBe('file:/tmp/x');
    expect(canonicalHandlePath('/tmp/x')).toBe('file:/tmp/x');
    const maps = [parsePathMapping('file:///tmp/ckpt/=s3://bucket/ckpt/')];
    expect(applyPathMap('file:/tmp/ckpt/job/shared/u', maps)).toBe('s3://bucket/ckpt/job/shared/u');
    expect(applyPathMap('s3p://bucket/x', [parsePathMapping('s3://bucket/=/mnt/b')])).toBe('/mnt/b/x');
  });

  it('a mapped local name is its path', () => {
    expect(localPathOf('file:///mnt/copy/a b')).toBe('/mnt/copy/a b');
    expect(localPathOf('/mnt/x')).toBe('/mnt/x');
    expect(localPathOf('s3://b/k')).toBeUndefined();
  });
});
