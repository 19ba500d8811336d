/**
 * Where the HTML page leaves the answers it started, by URL, for `prefetch` to take (vite.config.ts
 * writes the page; app/early-data.ts says which answers each page starts).
 */
export const EARLY_GLOBAL = 'pennantEarly'
