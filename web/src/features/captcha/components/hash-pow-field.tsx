import { Button, Group, Loader, Text } from '@mantine/core'
import { IconAlertTriangle, IconShieldCheck } from '@tabler/icons-react'
import { useEffect, useState, useSyncExternalStore } from 'react'
import { useTranslation } from '@/i18n'
import { errorMessage } from '@/utils/error-message'
import { fetchPowChallenge } from '../api'
import type { CaptchaStore } from '../captcha-store'
import { encodeAnswer, hashRate } from '../pow'
import type { PowReply, PowRequest } from '../pow.worker'
import { type CachedChallenge, forgetChallenge, readChallenge, storeChallenge } from '../pow-cache'
import classes from './captcha.module.css'

type Phase =
  | { kind: 'working'; hashes: number }
  | { kind: 'done'; hashes: number; ms: number | null }
  | { kind: 'failed'; message: string }

/** A cached challenge, or a new one from the server (then cached until it is sent). */
async function challenge(): Promise<CachedChallenge> {
  const cached = readChallenge()
  if (cached) return cached
  const issued = { ...(await fetchPowChallenge()), issuedAt: Date.now() }
  storeChallenge(issued)
  return issued
}

/**
 * Solves the HashPow challenge in a Web Worker while the user fills in the form, and says how it
 * went in a live region: "computing…", then the time it took and the hash rate.
 */
export default function HashPowField({ store }: { store: CaptchaStore }) {
  const { t } = useTranslation()
  const generation = useSyncExternalStore(store.subscribe, store.generation)
  const [phase, setPhase] = useState<Phase>({ kind: 'working', hashes: 0 })

  // biome-ignore lint/correctness/useExhaustiveDependencies: a renewal (new generation) restarts the search
  useEffect(() => {
    let stopped = false
    let worker: Worker | undefined
    setPhase({ kind: 'working', hashes: 0 })
    const done = (entry: CachedChallenge, hashes: number, ms: number | null) => {
      store.set(encodeAnswer(entry.id, entry.answer!), () => forgetChallenge(entry.id))
      setPhase({ kind: 'done', hashes, ms })
    }
    const fail = (err: unknown) => {
      if (stopped) return
      setPhase({ kind: 'failed', message: errorMessage(err, t('account.captcha.failed')) })
      store.fail(err)
    }
    challenge()
      .then((entry) => {
        if (stopped) return
        // Solved on an earlier visit, not sent yet.
        if (entry.answer) return done(entry, 0, null)
        const started = performance.now()
        worker = new Worker(new URL('../pow.worker.ts', import.meta.url), { type: 'module' })
        worker.onmessage = ({ data }: MessageEvent<PowReply>) => {
          if (data.type === 'progress') return setPhase({ kind: 'working', hashes: data.hashes })
          const solved = { ...entry, answer: data.answer }
          storeChallenge(solved)
          done(solved, data.hashes, performance.now() - started)
          worker?.terminate()
        }
        worker.onerror = (event) => fail(event.message || t('account.captcha.failed'))
        worker.postMessage({ challenge: entry.challenge, difficulty: entry.difficulty } satisfies PowRequest)
      })
      .catch(fail)
    return () => {
      stopped = true
      worker?.terminate()
    }
  }, [generation])

  return (
    <div className={classes.box}>
      <Group gap="xs" wrap="nowrap" role="status" aria-live="polite">
        {phase.kind === 'working' && <Loader size={16} aria-hidden />}
        {phase.kind === 'done' && <IconShieldCheck size={18} className={classes.ok} aria-hidden />}
        {phase.kind === 'failed' && <IconAlertTriangle size={18} className={classes.bad} aria-hidden />}
        <Text size="sm">
          {phase.kind === 'working' && t('account.captcha.computing')}
          {phase.kind === 'done' && t('account.captcha.done')}
          {phase.kind === 'failed' && t('account.captcha.failed_with', { message: phase.message })}
        </Text>
      </Group>
      <Text size="xs" c="dimmed" className={classes.detail}>
        {phase.kind === 'working' && t('account.captcha.hashes', { count: phase.hashes })}
        {phase.kind === 'done' && phase.ms !== null && <SolveStats hashes={phase.hashes} ms={phase.ms} />}
        {phase.kind === 'done' && phase.ms === null && t('account.captcha.reused')}
      </Text>
      {phase.kind === 'failed' && (
        <Button size="compact-sm" variant="light" onClick={() => store.renew()}>
          {t('common.button.retry')}
        </Button>
      )}
    </div>
  )
}

function SolveStats({ hashes, ms }: { hashes: number; ms: number }) {
  const { t } = useTranslation()
  const rate = hashRate(hashes, ms)
  return t('account.captcha.stats', {
    seconds: (ms / 1000).toFixed(2),
    rate: `${rate.value.toFixed(rate.unit === 'H/s' ? 0 : 2)} ${rate.unit}`,
  })
}
