import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { promisify } from 'node:util'
import { buildChallengeImage, dockerAvailable } from '../../server/test/helpers/challenge-image.ts'

const run = promisify(execFile)

/**
 * Challenge containers for the server under test: the test image built, and a Docker network of
 * this run's own (the server creates `<name>` and `<name>-noegress` on first use), so runs side by
 * side never share containers. Without a Docker engine the server runs with containers off and
 * the container tests skip themselves. `cleanup` removes what the run's containers left behind
 * (the server keeps containers running across restarts by design).
 */
export async function prepareContainers(): Promise<{
  env: Record<string, string>
  cleanup: () => Promise<void>
}> {
  if (!(await dockerAvailable())) return { env: { CONTAINER_BACKEND: 'none' }, cleanup: async () => {} }
  const started = Date.now()
  await buildChallengeImage()
  console.log(`[e2e] built the challenge image in ${Date.now() - started} ms`)
  const network = `pennant-e2e-${randomBytes(4).toString('hex')}`
  const networks = [network, `${network}-noegress`]
  return {
    // The challenge check's waits, shortened (20 s and 30 s in production).
    env: {
      CONTAINER_BACKEND: 'docker',
      CONTAINER_NETWORK: network,
      CONTAINER_CHECK_LISTEN: '20',
      CONTAINER_CHECK_UPTIME: '8',
    },
    async cleanup() {
      for (const name of networks) {
        const { stdout } = await run('docker', ['ps', '-aq', '--filter', `network=${name}`])
        const ids = stdout.split('\n').filter(Boolean)
        if (ids.length) await run('docker', ['rm', '-f', ...ids])
        await run('docker', ['network', 'rm', name]).catch(() => {}) // never created: nothing to do
      }
    },
  }
}
