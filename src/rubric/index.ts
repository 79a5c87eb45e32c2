// Public surface of the rubric room: presets, schema, validation, authoring, synthesis, lookup.
export * from './answer-schema.ts';
export * from './author.ts';
export * from './load.ts';
export * from './presets.ts';
export * from './prompt-file.ts';
export * from './schema.ts';
export * from './summary.ts';
export * from './synth.ts';
export * from './universal.ts';
export * from './validate.ts';
