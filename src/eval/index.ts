// Public surface of the eval room.

export * from './align.ts';
export * from './compare.ts';
export * from './stats/index.ts';
export * from './summary.ts';
