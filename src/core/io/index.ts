export * from './decode-error';
export * from './byte-reader';
export * from './byte-writer';
export * from './byte-source';
export * from './modified-utf8';
export * from './savepoint-files';
