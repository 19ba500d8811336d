import { type RefObject, useEffect } from 'react'

/**
 * Scrolls an overflowing element down slowly (`speed` px per second, scaled to its height so a
 * 4K screen moves as fast to the eye as a 1080p one), rests at each end, then starts over. With
 * reduced motion asked for, it turns a page at a time instead of gliding.
 */
export function useAutoScroll(ref: RefObject<HTMLElement | null>, active: boolean, restMs = 4000) {
  useEffect(() => {
    const el = ref.current
    if (!el || !active) return
    const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false
    let frame = 0
    let timer: ReturnType<typeof setTimeout> | undefined
    let last = 0
    let position = 0
    const end = () => el.scrollHeight - el.clientHeight

    const restThen = (next: () => void) => {
      timer = setTimeout(next, restMs)
    }
    const restart = () => {
      position = 0
      el.scrollTop = 0
      restThen(glide)
    }
    const glide = () => {
      last = performance.now()
      const step = (now: number) => {
        // A screen height every 25 s: readable from the back of a room.
        const speed = el.clientHeight / 25_000
        position = Math.min(end(), position + (now - last) * speed)
        last = now
        el.scrollTop = position
        if (position >= end()) restThen(restart)
        else frame = requestAnimationFrame(step)
      }
      frame = requestAnimationFrame(step)
    }
    const page = () => {
      if (el.scrollTop >= end()) el.scrollTop = 0
      else el.scrollTop = Math.min(end(), el.scrollTop + el.clientHeight)
      restThen(page)
    }
    if (reduced) restThen(page)
    else restThen(glide)
    return () => {
      cancelAnimationFrame(frame)
      clearTimeout(timer)
    }
  }, [ref, active, restMs])
}
