// Public surface of the store room: the SQLite answer cache and cache keys.
export * from './cache.ts';
export * from './cache-error.ts';
export * from './jsonl.ts';
export * from './keys.ts';
export * from './lock.ts';
export * from './progress.ts';
