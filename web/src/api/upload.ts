import { commonHeaders } from './client'
import { ApiError } from './error'

/**
 * Sends a multipart form with upload progress (fetch cannot report it). Resolves with the
 * parsed JSON body (or null for an empty one) and rejects with an {@link ApiError}.
 */
export function upload<T = unknown>(
  method: 'POST' | 'PUT',
  url: string,
  form: FormData,
  onProgress?: (fraction: number) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open(method, url)
    for (const [name, value] of Object.entries(commonHeaders(method))) xhr.setRequestHeader(name, value)
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress?.(e.loaded / e.total)
    }
    xhr.onerror = () => reject(new ApiError(0, 'Network error', 0))
    xhr.onload = () => {
      let body: unknown = null
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null
      } catch {}
      if (xhr.status >= 200 && xhr.status < 300) return resolve(body as T)
      const err = (body ?? {}) as { title?: string; status?: number }
      reject(new ApiError(xhr.status, err.title || xhr.statusText, err.status ?? xhr.status, body))
    }
    xhr.send(form)
  })
}
