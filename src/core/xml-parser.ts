// fast-xml-parser, loaded through its CommonJS bundle: its ES module build is many small
// files that take ~55 ms to load under Node 20 against ~10 ms for the bundle — paid by every
// render worker. Import it from here, never directly. An SVG is parsed once, by the
// sanitiser in the render worker (render/sanitize.ts); the code statistics and the overdraw
// geometry read that parse. The probe's perturbations (probe/svg-doc.ts) read single start
// tags with it.
import { createRequire } from 'node:module';

type FastXmlParser = typeof import('fast-xml-parser');

const fxp = createRequire(import.meta.url)('fast-xml-parser') as FastXmlParser;
export const XMLParser = fxp.XMLParser;
export type XMLParser = InstanceType<typeof fxp.XMLParser>;
export const XMLValidator = fxp.XMLValidator;
