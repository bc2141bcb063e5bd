export * from './encode-base64';
export * from './primitive-codecs';
export * from './string-codecs';
export * from './time-codecs';
export * from './array-codecs';
export * from './java-serialized-codec';
