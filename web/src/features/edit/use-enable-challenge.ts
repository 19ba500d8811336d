import { confirm } from '@/components/confirm'
import { useSubmit } from '@/hooks/use-submit'
import { useTranslation } from '@/i18n'
import { useChallengeActions } from './api'

/**
 * Enables or disables a challenge, as the list's switch and the editor's checklist both do.
 * Enabling while the game runs shows the challenge to every team at once and posts a notice, so
 * it is confirmed first.
 */
export function useEnableChallenge(
  gameId: number,
  challenge: { id: number; title: string },
  running: boolean,
) {
  const { t } = useTranslation()
  const { update } = useChallengeActions(gameId)
  const { busy, run } = useSubmit()

  const toggle = async (isEnabled: boolean) => {
    if (isEnabled && running) {
      const ok = await confirm({
        title: t('admin.challenges.enable_running_title'),
        message: t('admin.challenges.enable_running_body', { title: challenge.title }),
        confirmLabel: t('admin.challenges.enable'),
      })
      if (!ok) return
    }
    await run(() => update(challenge.id, { isEnabled }), {
      success: isEnabled
        ? t('admin.challenges.enabled', { title: challenge.title })
        : t('admin.challenges.disabled', { title: challenge.title }),
    })
  }
  return { toggle, busy }
}
