export * from './types';
export * from './snapshot-types';
export * from './inspection-types';
