/**
 * The cli workspace's challenges-as-code code (reader, planner, sync), which the folder upload
 * runs on the server: shared, not copied. Loaded only when a folder is uploaded.
 */
export { ApiError, createApi } from '../../../../cli/src/api.ts'
export { formatPlan } from '../../../../cli/src/format.ts'
export { runFolder } from '../../../../cli/src/run.ts'
