import { createHash } from 'node:crypto'
import { isIPv4 } from 'node:net'

/**
 * Classic libpcap files of one proxied connection (game-engine §6.6, with TCP instead of
 * upstream's UDP so that tools can follow the stream): every chunk of payload becomes one
 * synthetic Ethernet/IPv4/TCP frame between the player's and the container's address and port,
 * with sequence numbers that add up, after a synthetic handshake.
 */

/** Largest TCP payload of one IPv4 frame (total length is 16 bits). */
const MAX_SEGMENT = 65_535 - 20 - 20
const PLAYER_MAC = Buffer.from([2, 0, 0, 0, 0, 1])
const CONTAINER_MAC = Buffer.from([2, 0, 0, 0, 0, 2])
const FLAG = { FIN: 0x01, SYN: 0x02, PSH: 0x08, ACK: 0x10 }

/** The 24-byte file header: microsecond timestamps, Ethernet frames. */
export function fileHeader(): Buffer {
  const b = Buffer.alloc(24)
  b.writeUInt32LE(0xa1b2c3d4, 0)
  b.writeUInt16LE(2, 4)
  b.writeUInt16LE(4, 6)
  b.writeUInt32LE(262_144, 16) // snap length
  b.writeUInt32LE(1, 20) // LINKTYPE_ETHERNET
  return b
}

/**
 * An IPv4 address for the frames: the address itself, the IPv4 inside an IPv4-mapped IPv6
 * one, else a stable stand-in from 198.18.0.0/15 (the metadata keeps the real address).
 */
export function ipv4Of(address: string): Buffer {
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address
  if (isIPv4(plain)) return Buffer.from(plain.split('.').map(Number))
  const h = createHash('sha256').update(address).digest()
  return Buffer.from([198, 18 + (h[0]! & 1), h[1]!, h[2]!])
}

function checksum(bytes: Buffer): number {
  let sum = 0
  for (let i = 0; i < bytes.length; i += 2) sum += (bytes[i]! << 8) | (bytes[i + 1] ?? 0)
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16)
  return ~sum & 0xffff
}

interface Side {
  mac: Buffer
  ip: Buffer
  port: number
  /** Next sequence number this side sends. */
  seq: number
}

/** One record: header, Ethernet, IPv4 and a TCP or UDP header; the payload follows it. */
function frame(
  at: number,
  from: Side,
  to: Side,
  transport: Buffer,
  protocol: 6 | 17,
  payloadLength: number,
): Buffer {
  const ipLength = 20 + transport.length + payloadLength
  const b = Buffer.alloc(16 + 14 + 20)
  const ms = Math.floor(at)
  b.writeUInt32LE(Math.floor(ms / 1000), 0)
  b.writeUInt32LE((ms % 1000) * 1000, 4)
  b.writeUInt32LE(14 + ipLength, 8)
  b.writeUInt32LE(14 + ipLength, 12)
  to.mac.copy(b, 16)
  from.mac.copy(b, 22)
  b.writeUInt16BE(0x0800, 28)
  const ip = b.subarray(30)
  ip[0] = 0x45
  ip.writeUInt16BE(ipLength, 2)
  ip.writeUInt16BE(0x4000, 6) // don't fragment
  ip[8] = 64
  ip[9] = protocol
  from.ip.copy(ip, 12)
  to.ip.copy(ip, 16)
  ip.writeUInt16BE(checksum(ip), 10)
  return Buffer.concat([b, transport])
}

/** Writes the frames of one connection through `out` (which never blocks the caller). */
export function createPcapConnection(
  out: (bytes: Buffer) => void,
  player: { host: string; port: number },
  container: { host: string; port: number },
) {
  const p: Side = { mac: PLAYER_MAC, ip: ipv4Of(player.host), port: player.port, seq: 1_000 }
  const c: Side = { mac: CONTAINER_MAC, ip: ipv4Of(container.host), port: container.port, seq: 500_000 }

  function tcp(from: Side, to: Side, flags: number, payload?: Buffer) {
    const h = Buffer.alloc(20)
    h.writeUInt16BE(from.port, 0)
    h.writeUInt16BE(to.port, 2)
    h.writeUInt32BE(from.seq >>> 0, 4)
    h.writeUInt32BE(flags & FLAG.ACK ? to.seq >>> 0 : 0, 8)
    h[12] = 5 << 4
    h[13] = flags
    h.writeUInt16BE(65_535, 14)
    // The TCP checksum stays 0 ("not computed"): readers do not check it by default, and
    // summing every payload byte would cost the proxy CPU for nothing.
    out(frame(Date.now(), from, to, h, 6, payload?.length ?? 0))
    if (payload?.length) out(payload)
    from.seq += (payload?.length ?? 0) + (flags & (FLAG.SYN | FLAG.FIN) ? 1 : 0)
  }

  return {
    /** The metadata frame: UDP from 0.0.0.0:65535 to the player, a JSON payload. */
    metadata(data: Record<string, unknown>) {
      const payload = Buffer.from(JSON.stringify(data, null, 2))
      const from: Side = { mac: CONTAINER_MAC, ip: Buffer.from([0, 0, 0, 0]), port: 65_535, seq: 0 }
      const h = Buffer.alloc(8)
      h.writeUInt16BE(65_535, 0)
      h.writeUInt16BE(p.port, 2)
      h.writeUInt16BE(8 + payload.length, 4)
      out(frame(Date.now(), from, p, h, 17, payload.length))
      out(payload)
    },
    /** The three-way handshake: the connection opened. */
    open() {
      tcp(p, c, FLAG.SYN)
      tcp(c, p, FLAG.SYN | FLAG.ACK)
      tcp(p, c, FLAG.ACK)
    },
    /** Payload; `up` from the player to the container. Split to fit IPv4 frames. */
    data(up: boolean, chunk: Buffer) {
      const [from, to] = up ? [p, c] : [c, p]
      for (let at = 0; at < chunk.length; at += MAX_SEGMENT)
        tcp(from, to, FLAG.PSH | FLAG.ACK, chunk.subarray(at, at + MAX_SEGMENT))
    },
    /** Both sides finish. */
    close() {
      tcp(p, c, FLAG.FIN | FLAG.ACK)
      tcp(c, p, FLAG.FIN | FLAG.ACK)
      tcp(p, c, FLAG.ACK)
    },
  }
}
