// sharp, loaded through its CommonJS build. Its ES module build takes twice as long to load
// under Node 20 (measured: ~155 ms wall / ~255 ms CPU against ~78 / ~93 ms), and every render
// worker pays that before its first picture. Import sharp from here, never from 'sharp'.
import { createRequire } from 'node:module';

type Sharp = typeof import('sharp').default;

const sharp = createRequire(import.meta.url)('sharp') as Sharp;
export default sharp;
