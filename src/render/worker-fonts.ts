// Imported first by the render worker (worker.ts): points fontconfig at the pinned fonts
// (fonts.ts) before libvips or librsvg can read its configuration, which fontconfig does on
// the first text it lays out. The worker does this itself rather than receive it from its
// parent at fork time, so a one-shot command forks without first loading node:crypto for
// the config file's hashed name (~8 ms earlier; the worker loads crypto for sharp anyway).
import { fontEnv } from '../core/fonts.ts';

Object.assign(process.env, fontEnv());
