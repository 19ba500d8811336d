import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The server workspace's folder. This file sits one level below it (`src/paths.ts`), as the
 * built bundle does (`dist/main.js`), so the same expression holds whether the sources or the
 * build run; files the server reads at run time are found from here.
 */
export const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
