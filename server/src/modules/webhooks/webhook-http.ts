import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import { isIP } from 'node:net'

/**
 * Where deliveries may go: public internet addresses only. Refused, in every spelling the URL
 * parser or DNS may produce: loopback, private, link-local, shared (CGNAT), multicast, cloud
 * metadata addresses and names, IPv4-mapped / -compatible / NAT64 / 6to4 / Teredo embeddings
 * and every other block of the IANA IPv4 and IPv6 special-purpose address registries.
 * An operator who runs a receiver on an internal address names its host in
 * `WEBHOOK_ALLOWED_HOSTS` (the host exactly as written in the URL). The check runs on the URL
 * when it is saved and again on every address DNS returns when it is sent, so a name that later
 * resolves to a refused address is refused too. Redirects are not followed.
 */
type Cidr = readonly [bigint, number]

const v4Value = (a: string): bigint => a.split('.').reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n)

/** The 128-bit value of an IPv6 address (any valid spelling, an IPv4 tail included). */
function v6Value(address: string): bigint | null {
  let a = address.replace(/%.*$/, '')
  if (isIP(a) !== 6) return null
  let tail: string[] = []
  const dotted = a.match(/^(.*:)(\d+\.\d+\.\d+\.\d+)$/)
  if (dotted) {
    const v = Number(v4Value(dotted[2]!))
    tail = [(v >>> 16).toString(16), (v & 0xffff).toString(16)]
    a = dotted[1]!.endsWith('::') ? dotted[1]! : dotted[1]!.slice(0, -1)
  }
  const [head, rest] = a.includes('::') ? a.split('::') : [a, undefined]
  const h = head ? head.split(':') : []
  const r = rest ? rest.split(':') : []
  const zeros = rest === undefined ? [] : Array(8 - tail.length - h.length - r.length).fill('0')
  const words = [...h, ...zeros, ...r, ...tail]
  if (words.length !== 8) return null
  return words.reduce((n, w) => (n << 16n) | BigInt(Number.parseInt(w, 16)), 0n)
}

const cidr4 = (text: string): Cidr => {
  const [ip, bits] = text.split('/')
  return [v4Value(ip!), Number(bits ?? 32)]
}
const cidr6 = (text: string): Cidr => {
  const [ip, bits] = text.split('/')
  return [v6Value(ip!)!, Number(bits ?? 128)]
}
const within = (value: bigint, width: number, [base, bits]: Cidr) =>
  value >> BigInt(width - bits) === base >> BigInt(width - bits)

/** IANA IPv4 special-purpose registry, multicast, and the metadata addresses outside it. */
const BLOCKED_V4 = [
  '0.0.0.0/8', // "this network"
  '10.0.0.0/8', // private
  '100.64.0.0/10', // shared address space (CGNAT; Alibaba's metadata 100.100.100.200)
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local (AWS, GCP, Azure, OpenStack metadata)
  '172.16.0.0/12', // private
  '192.0.0.0/24', // IETF protocol assignments (Oracle's metadata 192.0.0.192)
  '192.0.2.0/24', // documentation
  '192.31.196.0/24', // AS112
  '192.52.193.0/24', // AMT
  '192.88.99.0/24', // 6to4 relay anycast
  '192.168.0.0/16', // private
  '192.175.48.0/24', // direct delegation AS112
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation
  '203.0.113.0/24', // documentation
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, broadcast
  '168.63.129.16/32', // Azure's host endpoint (wireserver)
].map(cidr4)

/** IANA IPv6 special-purpose registry, plus the deprecated and multicast blocks. */
const BLOCKED_V6 = [
  '::/96', // unspecified, loopback and IPv4-compatible addresses
  '::ffff:0:0/96', // IPv4-mapped
  '64:ff9b::/96', // NAT64, well-known prefix
  '64:ff9b:1::/48', // NAT64, local use
  '100::/64', // discard
  '100:0:0:1::/64', // dummy prefix
  '2001::/23', // IETF protocol assignments (Teredo 2001::/32 among them)
  '2001:db8::/32', // documentation
  '2002::/16', // 6to4
  '2620:4f:8000::/48', // AS112
  '3fff::/20', // documentation
  '5f00::/16', // segment routing
  'fc00::/7', // unique local (AWS's metadata fd00:ec2::254)
  'fe80::/10', // link-local
  'fec0::/10', // site-local (deprecated)
  'ff00::/8', // multicast
].map(cidr6)

/** Metadata services' names; single-label names and these suffixes never name a public host. */
const BLOCKED_HOSTS = new Set([
  'metadata.google.internal',
  'metadata.azure.internal',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
  'metadata.platformequinix.com',
])
const BLOCKED_SUFFIXES = [
  'localhost',
  'local',
  'internal',
  'localdomain',
  'lan',
  'home.arpa',
  'arpa',
  'test',
  'invalid',
]

/** True for an IP address no webhook may reach (see above); false for names and public addresses. */
export function blockedAddress(address: string): boolean {
  const a = address.toLowerCase().replace(/^\[|\]$/g, '')
  if (isIP(a) === 4) return BLOCKED_V4.some((c) => within(v4Value(a), 32, c))
  const v6 = v6Value(a)
  if (v6 !== null) return BLOCKED_V6.some((c) => within(v6, 128, c))
  return false
}

/** True for a host name that names something internal (before any DNS lookup). */
function blockedName(host: string): boolean {
  if (isIP(host)) return false
  if (!host.includes('.')) return true // "metadata", "instance-data", "localhost": search domains
  if (BLOCKED_HOSTS.has(host)) return true
  return BLOCKED_SUFFIXES.some((s) => host.endsWith(`.${s}`))
}

/** Hosts an operator allowed (`WEBHOOK_ALLOWED_HOSTS`), lower case, IPv6 without brackets. */
export type AllowedHosts = ReadonlySet<string>
const NONE: AllowedHosts = new Set()

const hostOf = (url: URL) =>
  url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase()

/** Why an endpoint URL is refused (`scheme` or `blocked`), or null when it may be used. */
export function checkEndpointUrl(raw: string, allowed: AllowedHosts = NONE): 'scheme' | 'blocked' | null {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return 'scheme'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'scheme'
  if (!url.hostname || url.username || url.password) return 'scheme'
  const host = hostOf(url)
  if (allowed.has(host)) return null
  if (blockedName(host) || blockedAddress(host)) return 'blocked'
  return null
}

/** A DNS lookup that refuses blocked addresses (every one returned, for `all` lookups too). */
export function guardedLookup(
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
  opts: { timeoutMs: number; signal?: AbortSignal; allowed?: AllowedHosts },
): Promise<HttpAnswer> {
  return new Promise((resolve) => {
    const url = new URL(rawUrl)
    const allowed = opts.allowed ?? NONE
    const why = checkEndpointUrl(rawUrl, allowed)
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
        // An allowed host may resolve to an internal address; any other name may not.
        ...(allowed.has(hostOf(url)) ? {} : { lookup: guardedLookup as never }),
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
