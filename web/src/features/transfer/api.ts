import { ONCE, useApi } from '@/api/hooks'
import type { Ok } from '@/api/types'
import { upload } from '@/api/upload'

export type ImportPreview = Ok<'/api/ext/games/import/preview', 'post'>
export type ImportResult = Ok<'/api/ext/games/import', 'post'>
export type TransferWarning = ImportPreview['warnings'][number]

/** Which of our additions an admin switched on (game transfer shows only when it is). */
export function useTransferOn(): boolean {
  const { data } = useApi('/api/ext/features', undefined, ONCE)
  return data?.gameTransfer === true
}

/** The download address of a game's archive; `full` adds teams, submissions and writeups. */
export const exportUrl = (gameId: number, full: boolean) =>
  `/api/ext/games/${gameId}/export${full ? '?full=true' : ''}`

function send<T>(url: string, file: File, full: boolean, onProgress?: (f: number) => void) {
  const form = new FormData()
  form.append('file', file)
  return upload<T>('POST', `${url}${full ? '?full=true' : ''}`, form, onProgress)
}

/** What importing `file` would create; creates nothing. */
export const previewImport = (file: File, full: boolean, onProgress?: (f: number) => void) =>
  send<ImportPreview>('/api/ext/games/import/preview', file, full, onProgress)

/** Imports `file` as a new game. */
export const importGame = (file: File, full: boolean, onProgress?: (f: number) => void) =>
  send<ImportResult>('/api/ext/games/import', file, full, onProgress)
