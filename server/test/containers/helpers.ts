import { execFileSync } from 'node:child_process'
import { createChallenge } from '../factories.ts'
import type { Agent } from '../helpers/agent.ts'
import type { TestApp } from '../helpers/app.ts'
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

/** The docker CLI, for looking at what the server made; its output, trimmed. */
export const docker = (...args: string[]) =>
  execFileSync('docker', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()

/**
 * Ends a test file's container app: removes every container it started (a failed test's too),
 * the firewall rules of its networks, closes it, and removes the challenge networks it made.
 */
export async function closeContainerApp(t: TestApp, network: string) {
  await t.app.deps.services.containerRuntime.reap(new Date(Date.now() + 365 * 86400_000))
  await t.app.deps.infra.containers?.isolation.remove()
  await t.close()
  for (const n of [network, `${network}-noegress`]) {
    try {
      docker('network', 'rm', n)
    } catch {
      // never created
    }
  }
}
