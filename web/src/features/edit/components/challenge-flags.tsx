import type { EditChallenge } from '../api'
import { flagMode } from '../flag-rules'
import { AttachmentSection } from './attachment-section'
import { DynamicAttachmentFlags } from './dynamic-attachment-flags'
import { FlagTemplateSection } from './flag-template-section'
import { StaticFlags } from './static-flags'

/** A challenge's attachment and flags, in the form its type calls for (editor and flags page). */
export function ChallengeFlags({
  gameId,
  challenge,
  onChanged: refresh,
}: {
  gameId: number
  challenge: EditChallenge
  onChanged: () => void
}) {
  const mode = flagMode(challenge.type)
  return (
    <>
      {/* Dynamic attachments carry one file per flag instead of a shared one. */}
      {mode !== 'dynamicAttachment' && (
        <AttachmentSection
          key={`${challenge.attachment?.type}-${challenge.attachment?.url}`}
          gameId={gameId}
          challenge={challenge}
          onChanged={refresh}
        />
      )}
      {mode === 'static' && <StaticFlags gameId={gameId} challenge={challenge} onChanged={refresh} />}
      {mode === 'dynamicAttachment' && (
        <DynamicAttachmentFlags gameId={gameId} challenge={challenge} onChanged={refresh} />
      )}
      {mode === 'template' && (
        <FlagTemplateSection
          key={challenge.flagTemplate ?? ''}
          gameId={gameId}
          challenge={challenge}
          onChanged={refresh}
        />
      )}
    </>
  )
}
