// rubrica's library surface. The CLI and the HTTP server are thin faces over these.

export * from './artifact/index.ts';
export * from './checks/index.ts';
export * from './core/criteria.ts';
export * from './core/errors.ts';
export * from './core/record.ts';
export * from './core/usage.ts';
export * from './eval/index.ts';
export * from './judge/index.ts';
export * from './models/index.ts';
export * from './pipeline/index.ts';
export * from './render/index.ts';
export * from './reward/index.ts';
export * from './rubric/index.ts';
export * from './scorers/index.ts';
export * from './server/index.ts';
export * from './store/index.ts';
