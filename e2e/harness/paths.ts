import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** The e2e workspace (`e2e/`). */
export const E2E_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
/** The repository root. */
export const REPO_ROOT = path.resolve(E2E_DIR, '..')
/** Everything a run leaves behind: screenshots, traces, the server log (gitignored). */
export const ARTIFACTS_DIR = path.join(E2E_DIR, '.artifacts')
export const SCREENSHOTS_DIR = path.join(ARTIFACTS_DIR, 'screenshots')
export const WEB_DIR = path.join(REPO_ROOT, 'web')
