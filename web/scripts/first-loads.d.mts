// Types of first-loads.mjs for vite.config.ts.
/** Route → the modules it loads on top of the start-up code, and its budget in KiB, if any. */
export const routes: [route: string, modules: string[], budget?: number][]
export const strings: (area: string) => string
export const routeModules: (modules: string[]) => string[]
export const frameModules: string[]
