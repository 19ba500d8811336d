import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

/** Whether Debian's nginx is installed (`apt-get install nginx`). */
export function hasNginx(): boolean {
  try {
    execFileSync('nginx', ['-v'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** Whether `redis-server` can be started here (`apt-get install redis-server`). */
export function hasRedisServer(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

export interface ServerProcess {
  name: string
  url: string
  port: number
  child: ChildProcess
  /** Every JSON log line it wrote so far. */
  logs: Record<string, unknown>[]
  exited: Promise<void>
}

/** The real server (`src/main.ts`) in its own process, with its log lines collected. */
export async function startServer(name: string, env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const logs: Record<string, unknown>[] = []
  let rest = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n')
    rest = lines.pop()!
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line))
      } catch {
        // the admin-password banner and the like
      }
    }
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`server ${name} exited during start-up`)
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { name, url, port, child, logs, exited }
    } catch {
      // not listening yet
    }
    // real wait: polling a starting server process
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`server ${name} did not start`)
}

export async function killHard(server: ServerProcess) {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL')
  await server.exited
}

/**
 * Debian's nginx in front of the servers, as a deployment would have it: round robin without
 * stickiness, WebSockets passed through, the client address in X-Forwarded-For, and which
 * server answered in `X-Upstream` (for tests). `tls`: HTTPS with HTTP/2, as a public site is
 * served, on a self-signed certificate made for the run (clients must accept it).
 */
export async function startNginx(upstreams: number[], listenPort?: number, tls = false) {
  const dir = await mkdtemp(path.join(tmpdir(), 'pennant-nginx-'))
  const port = listenPort ?? (await freePort())
  if (tls)
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1'].concat([
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ]),
      { stdio: 'ignore' },
    )
  const listen = tls
    ? `listen 127.0.0.1:${port} ssl http2;
    ssl_certificate ${dir}/cert.pem;
    ssl_certificate_key ${dir}/key.pem;`
    : `listen 127.0.0.1:${port};`
  const conf = `
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
pid ${dir}/nginx.pid;
daemon off;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  map $http_upgrade $connection_upgrade { default upgrade; '' ''; }
  upstream pennant {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=30s;`).join('\n')}
    keepalive 64;
  }
  server {
    ${listen}
    client_max_body_size 32m;
    location / {
      proxy_pass http://pennant;
      proxy_http_version 1.1;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_read_timeout 1h;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`
  await writeFile(path.join(dir, 'nginx.conf'), conf)
  const child = spawn(
    'nginx',
    ['-e', path.join(dir, 'error.log'), '-p', dir, '-c', path.join(dir, 'nginx.conf')],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  )
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error('nginx exited during start-up')
    try {
      // Listening is enough (a TLS answer would need the self-signed certificate trusted).
      await new Promise<void>((resolve, reject) => {
        const probe = connect(port, '127.0.0.1', () => {
          probe.end()
          resolve()
        }).once('error', reject)
      })
      break
    } catch {
      // real wait: polling a starting server process
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  return {
    url,
    /** The master's process id (its worker is its child): the scale bench counts their CPU. */
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null) child.kill('SIGQUIT')
      await exited
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/**
 * A Redis of the test's own on `port` (no persistence), which the test may stop and start
 * again at will: the machine's shared Redis must never be stopped.
 */
export function ownRedis(port: number) {
  let child: ChildProcess | null = null
  let exited: Promise<void> = Promise.resolve()
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      const proc = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      )
      child = proc
      exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()))
      // Ready once it says so on its log.
      await new Promise<void>((resolve, reject) => {
        let seen = ''
        proc.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
          seen += chunk
          if (seen.includes('Ready to accept connections')) resolve()
        })
        proc.once('exit', () => reject(new Error(`redis-server on port ${port} exited: ${seen.slice(-500)}`)))
      })
    },
    /** Freezes it (SIGSTOP): connections stay open and nothing answers, as with a hung host. */
    freeze() {
      child?.kill('SIGSTOP')
    },
    thaw() {
      child?.kill('SIGCONT')
    },
    /** Kills it (as a crash or a host going away would), and waits until it is gone. */
    async stop() {
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
      child = null
    },
  }
}

export type OwnRedis = ReturnType<typeof ownRedis>
