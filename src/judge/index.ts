// Public surface of the judge room: prompts, answer schemas, the cached judge.
export * from './judge.ts';
export * from './prompt.ts';
export * from './schema.ts';
