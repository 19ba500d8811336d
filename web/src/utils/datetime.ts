/**
 * `<input type="datetime-local">` speaks local wall-clock time as `YYYY-MM-DDTHH:mm`; the API
 * speaks epoch milliseconds. These convert between the two in the browser's time zone.
 */
const pad = (n: number) => String(n).padStart(2, '0')

export function toLocalInput(ms: number): string {
  const d = new Date(ms)
  if (Number.isNaN(d.getTime())) return ''
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

/** Epoch milliseconds of a `datetime-local` value, or null when it is empty or not a date. */
export function fromLocalInput(value: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)) return null
  const ms = new Date(value).getTime()
  return Number.isNaN(ms) ? null : ms
}
