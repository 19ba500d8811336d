import { adminAgent } from '../../server/test/factories.ts'
import type { Agent } from '../../server/test/helpers/agent.ts'
import type { TestApp } from '../../server/test/helpers/app.ts'
import { resolveAttachment } from '../src/attachment.ts'
import type { ChallengeSpec } from '../src/challenge-yml/spec.ts'
import { main } from '../src/main.ts'
import { attachmentUrl, type DesiredChallenge, toUpdateModel } from '../src/plan.ts'
import type { ServerChallenge } from '../src/server-model.ts'

export const desiredOf = (specs: ChallengeSpec[]): DesiredChallenge[] =>
  specs.map((s) => ({ ...s, attachment: resolveAttachment(s.attachment) }))

/** A new challenge as the server creates it (api-contract §2.0 defaults). */
export function newServerChallenge(
  id: number,
  title: string,
  type: string,
  category: string,
): ServerChallenge {
  return {
    id,
    title,
    content: '',
    category,
    type,
    hints: [],
    flagTemplate: null,
    isEnabled: false,
    attachment: null,
    flags: [],
    containerImage: '',
    memoryLimit: 64,
    cpuCount: 1,
    storageLimit: 256,
    containerExposePort: 80,
    enableTrafficCapture: false,
    disableBloodBonus: false,
    submissionLimit: 0,
    originalScore: 1000,
    minScoreRate: 0.25,
    difficulty: 5,
    openAt: null,
    closeAt: null,
    sourceKey: null,
  }
}

/** What the server shows once a challenge was created and updated to match `d`, as a sync would do. */
export function serverAfterSync(d: DesiredChallenge, id: number): ServerChallenge {
  const s = newServerChallenge(id, d.title, d.type, d.category)
  const update = toUpdateModel(d)
  Object.assign(s, update)
  if (update.flagTemplate === '') s.flagTemplate = null
  const url = attachmentUrl(d.attachment)
  s.attachment = url === null ? null : { type: d.attachment.type as 'Local' | 'Remote', url }
  // The detail never lists a DynamicContainer's flags.
  s.flags = d.type === 'DynamicContainer' ? [] : d.flags.map((flag, i) => ({ id: id * 100 + i, flag }))
  return s
}

/**
 * The test app listening on a port, and a real fetch signed in as its admin by cookie with the
 * XSRF echo, standing in for an admin token (main.test.ts runs the command with a real token).
 */
export async function listeningAsAdmin(
  t: TestApp,
): Promise<{ admin: Agent; url: string; asAdmin: typeof fetch }> {
  const admin = await adminAgent(t.app)
  const url = await t.app.listen({ port: 0, host: '127.0.0.1' })
  const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  const xsrf = admin.cookies.get('XSRF-TOKEN') ?? ''
  const asAdmin: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers)
    headers.delete('authorization')
    headers.set('cookie', cookie)
    headers.set('x-xsrf-token', xsrf)
    return fetch(input, { ...init, headers })
  }
  return { admin, url, asAdmin }
}

/** Runs the command line in process; what it printed, and its exit status. */
export async function runCli(
  argv: string[],
  env: Record<string, string | undefined>,
  fetchFn?: typeof fetch,
) {
  const out: string[] = []
  const err: string[] = []
  const code = await main(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l), fetch: fetchFn })
  return { code, out: out.join('\n'), err: err.join('\n') }
}
