/**
 * Input styles for codes and flags: monospace at 13 px. At 14 px Chromium drops the `_` of
 * DejaVu Sans Mono (a common fallback monospace font) inside inputs, and flags are full of them.
 */
export const MONO_INPUT = { input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }
