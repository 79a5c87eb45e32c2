// The papers' picture: 512×512 on white. Kept apart from the renderer so that commands can
// read the defaults without loading sharp in the main process (start-up time).
export const DEFAULT_SIZE = 512;
export const DEFAULT_BACKGROUND = 'white';
/** The renderer closest to Chromium on the fidelity corpus (docs/rendering.md). */
export const DEFAULT_RENDERER = 'librsvg' as const;
