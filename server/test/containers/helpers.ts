import { createChallenge } from '../factories.ts'
import type { Agent } from '../helpers/agent.ts'
import { CHALLENGE_IMAGE } from '../helpers/challenge-image.ts'

/** An enabled container challenge of the test image (dynamic: each team gets its own flag). */
export async function containerChallenge(
  admin: Agent,
  gameId: number,
  body: Record<string, unknown> = {},
  type: 'DynamicContainer' | 'StaticContainer' = 'DynamicContainer',
) {
  const c = await createChallenge(admin, gameId, { category: 'Pwn', type })
  if (type === 'StaticContainer')
    await admin.post(`/api/edit/games/${gameId}/challenges/${c.id}/flags`, [{ flag: 'flag{static}' }])
  const res = await admin.put(`/api/edit/games/${gameId}/challenges/${c.id}`, {
    containerImage: CHALLENGE_IMAGE,
    containerExposePort: 8080,
    memoryLimit: 64,
    cpuCount: 5,
    isEnabled: true,
    ...body,
  })
  if (res.statusCode !== 200) throw new Error(`challenge update failed: ${res.body}`)
  return c
}
