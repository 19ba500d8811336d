import { execFile } from 'node:child_process'
import { chmod, copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/**
 * The test challenge image: no registry is reachable here, so it is built from scratch. Several
 * checkouts share one engine: when what the image does changes, its tag changes too, so an
 * older checkout rebuilding its own version never swaps the image under a newer one's tests.
 */
export const CHALLENGE_IMAGE = 'pennant-test-challenge:2'
/** The echo service of {@link CHALLENGE_IMAGE}: every byte a connection sends comes back. */
export const ECHO_PORT = 9090
/** The same with a command that does not exist: it cannot start (a broken challenge). */
export const CRASHING_IMAGE = 'pennant-test-crashing:latest'

/**
 * Broken challenges for the organisers' check, built by {@link buildChallengeImage} from the same
 * busybox: each declares port 8080 like the good image.
 */
export const BROKEN_IMAGES = {
  /** Serves the flag to one connection on 8080, then exits with code 3. */
  exits: 'pennant-test-exits:1',
  /** Serves the flag on 8081, not on the 8080 it declares, and says so (three lines of output). */
  wrongPort: 'pennant-test-wrong-port:1',
  /** Serves the flag to one connection, then fills 128 MiB of memory (killed under 64 MiB). */
  memory: 'pennant-test-memory:1',
} as const

const BROKEN_COMMANDS: Record<keyof typeof BROKEN_IMAGES, string> = {
  exits: '/bin/busybox nc -l -p 8080 -e /srv/serve.sh; exit 3',
  wrongPort:
    'echo starting; echo listening on 8081; echo warning: no config file >&2; exec /bin/busybox nc -ll -p 8081 -e /srv/serve.sh',
  memory:
    '/bin/busybox nc -l -p 8080 -e /srv/serve.sh; exec /bin/busybox dd if=/dev/zero of=/dev/null bs=128M count=1',
}

/**
 * Builds {@link CHALLENGE_IMAGE} (once per engine; cheap when it exists): Debian's static
 * busybox, serving the container's `GZCTF_FLAG` (and team id) to every TCP connection on port
 * 8080, and echoing whatever a connection sends on port 9090 (two-way traffic for the proxy).
 * The image also declares 8080/udp, as images with several ports do.
 */
export async function buildChallengeImage(tag = CHALLENGE_IMAGE): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pennant-image-'))
  try {
    await copyFile('/bin/busybox', path.join(dir, 'busybox'))
    await writeFile(
      path.join(dir, 'serve.sh'),
      '#!/bin/busybox sh\necho "flag=$GZCTF_FLAG team=$GZCTF_TEAM_ID pennant=$PENNANT_FLAG"\n',
    )
    await chmod(path.join(dir, 'serve.sh'), 0o755)
    await writeFile(
      path.join(dir, 'Dockerfile'),
      [
        'FROM scratch',
        'COPY busybox /bin/busybox',
        'COPY serve.sh /srv/serve.sh',
        'EXPOSE 8080/tcp 8080/udp 9090/tcp',
        'CMD ["/bin/busybox", "sh", "-c", "/bin/busybox nc -ll -p 9090 -e /bin/busybox cat & exec /bin/busybox nc -ll -p 8080 -e /srv/serve.sh"]',
        '',
      ].join('\n'),
    )
    await run('docker', ['build', '-q', '-t', tag, dir])
    await writeFile(path.join(dir, 'Dockerfile'), `FROM ${tag}\nCMD ["/srv/missing"]\n`)
    await run('docker', ['build', '-q', '-t', CRASHING_IMAGE, dir])
    for (const [name, command] of Object.entries(BROKEN_COMMANDS)) {
      await writeFile(
        path.join(dir, 'Dockerfile'),
        `FROM ${tag}\nCMD ${JSON.stringify(['/bin/busybox', 'sh', '-c', command])}\n`,
      )
      await run('docker', ['build', '-q', '-t', BROKEN_IMAGES[name as keyof typeof BROKEN_IMAGES], dir])
    }
    return tag
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** Whether a Docker engine answers here (tests that need one say so when it does not). */
export async function dockerAvailable(): Promise<boolean> {
  try {
    await run('docker', ['version', '--format', '{{.Server.Version}}'])
    return true
  } catch {
    return false
  }
}
