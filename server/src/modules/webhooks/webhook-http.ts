import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import { isIP } from 'node:net'

/**
 * Where deliveries may go. Admins are trusted to name their own endpoints (a chat bridge on the
 * same host or network is normal), so private and loopback addresses are allowed; what is
 * refused is what no webhook needs and an attacker who fooled an admin would want: link-local
 * addresses (169.254.0.0/16, fe80::/10, where cloud metadata services answer), the named
 * metadata hosts and the unspecified address. The check runs on the URL when it is saved and
 * again on every address DNS returns when it is sent, so a name that later resolves to a
 * metadata address is refused too. Redirects are not followed.
 */
const BLOCKED_HOSTS = new Set(['metadata.google.internal', 'metadata', 'metadata.azure.internal'])

/** The IPv4 address inside an IPv4-mapped IPv6 one (`::ffff:1.2.3.4` or `::ffff:102:304`). */
function mappedV4(a: string): string | null {
  const dotted = a.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/)
  if (dotted) return dotted[1]!
  const hex = a.match(/^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/)
  if (!hex) return null
  const [hi, lo] = [Number.parseInt(hex[1]!, 16), Number.parseInt(hex[2]!, 16)]
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.')
}

export function blockedAddress(address: string): boolean {
  const a = address.toLowerCase().replace(/^\[|\]$/g, '')
  const v4 = isIP(a) === 4 ? a : mappedV4(a)
  if (v4) {
    const [x, y] = v4.split('.').map(Number)
    // Link-local (AWS, GCP, Azure, OpenStack metadata), Alibaba's metadata, "this host".
    return (x === 169 && y === 254) || v4 === '100.100.100.200' || x === 0
  }
  if (isIP(a) === 6) return a === '::' || /^fe[89ab]/.test(a) || a === 'fd00:ec2::254' // link-local, AWS IPv6 metadata
  return false
}

/** Why an endpoint URL is refused (`scheme` or `blocked`), or null when it may be used. */
export function checkEndpointUrl(raw: string): 'scheme' | 'blocked' | null {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return 'scheme'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'scheme'
  if (!url.hostname || url.username || url.password) return 'scheme'
  const host = url.hostname.replace(/\.$/, '').toLowerCase()
  if (BLOCKED_HOSTS.has(host) || blockedAddress(host)) return 'blocked'
  return null
}

/** A DNS lookup that refuses blocked addresses (every one returned, for `all` lookups too). */
function guardedLookup(
  hostname: string,
  options: object,
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, [])
    const list = addresses as LookupAddress[]
    if (list.some((x) => blockedAddress(x.address)))
      return callback(
        Object.assign(new Error(`${hostname} resolves to a blocked address`), { code: 'EBLOCKED' }),
        [],
      )
    if ((options as { all?: boolean }).all) return callback(null, list)
    callback(null, list[0]!.address, list[0]!.family)
  })
}

export interface HttpAnswer {
  /** The HTTP status, or null when no answer came (refused, timed out, blocked). */
  statusCode: number | null
  /** The first bytes of the answer's body, or the error. */
  text: string
}

/** How much of an answer's body is kept in the delivery log. */
export const ANSWER_BYTES = 512

/** POSTs `body` and reads at most the first {@link ANSWER_BYTES} of the answer; never throws. */
export function postJson(
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  opts: { timeoutMs: number; signal?: AbortSignal },
): Promise<HttpAnswer> {
  return new Promise((resolve) => {
    const url = new URL(rawUrl)
    const why = checkEndpointUrl(rawUrl)
    if (why)
      return resolve({
        statusCode: null,
        text: `refused: ${why === 'scheme' ? 'not an http(s) URL' : 'blocked address'}`,
      })
    const client = url.protocol === 'https:' ? https : http
    let done = false
    const finish = (answer: HttpAnswer) => {
      if (done) return
      done = true
      clearTimeout(timer)
      resolve(answer)
    }
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'Pennant-Webhooks/1',
          'Content-Length': String(Buffer.byteLength(body)),
          ...headers,
        },
        lookup: guardedLookup as never,
        signal: opts.signal,
      },
      (res) => {
        const chunks: Buffer[] = []
        let size = 0
        res.on('data', (chunk: Buffer) => {
          if (size < ANSWER_BYTES) chunks.push(chunk)
          size += chunk.length
          // Enough read: the rest of a large answer is not worth waiting for.
          if (size >= ANSWER_BYTES) res.destroy()
        })
        const end = () =>
          finish({
            statusCode: res.statusCode ?? null,
            text: Buffer.concat(chunks).subarray(0, ANSWER_BYTES).toString('utf8'),
          })
        res.on('end', end)
        res.on('close', end)
        res.on('error', end)
      },
    )
    const timer = setTimeout(() => {
      req.destroy()
      finish({ statusCode: null, text: `no answer within ${Math.round(opts.timeoutMs / 1000)} s` })
    }, opts.timeoutMs)
    req.on('error', (err: NodeJS.ErrnoException) =>
      finish({
        statusCode: null,
        text: err.code === 'EBLOCKED' ? err.message : `${err.code ?? 'error'}: ${err.message}`,
      }),
    )
    req.end(body)
  })
}
