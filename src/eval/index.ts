// Public surface of the eval room.

export * from './stats/index.ts';
export * from './summary.ts';
