export * from './types';
export * from './snapshot-types';
