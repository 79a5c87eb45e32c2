// Public surface of the eval room.
export {};
export * from './stats/index.ts';
export * from './summary.ts';
