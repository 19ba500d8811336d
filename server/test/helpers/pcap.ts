/** One frame of a pcap file, decoded down to its transport header. */
export interface Frame {
  time: number
  src: string
  dst: string
  protocol: 'tcp' | 'udp'
  srcPort: number
  dstPort: number
  /** TCP only. */
  seq: number
  ack: number
  flags: { syn: boolean; ack: boolean; fin: boolean; psh: boolean }
  payload: Buffer
}

/**
 * A small reader of classic libpcap files with Ethernet/IPv4 frames, written from the format's
 * description (independent of the server's writer): checks the header and every length field.
 */
export function readPcap(file: Buffer): Frame[] {
  if (file.readUInt32LE(0) !== 0xa1b2c3d4) throw new Error('not a little-endian microsecond pcap')
  if (file.readUInt16LE(4) !== 2 || file.readUInt16LE(6) !== 4) throw new Error('not pcap 2.4')
  if (file.readUInt32LE(20) !== 1) throw new Error('link type is not Ethernet')
  const frames: Frame[] = []
  let at = 24
  while (at < file.length) {
    const sec = file.readUInt32LE(at)
    const usec = file.readUInt32LE(at + 4)
    const incl = file.readUInt32LE(at + 8)
    const orig = file.readUInt32LE(at + 12)
    if (incl !== orig) throw new Error('truncated frame')
    const f = file.subarray(at + 16, at + 16 + incl)
    if (f.length !== incl) throw new Error('file ends inside a frame')
    at += 16 + incl
    if (f.readUInt16BE(12) !== 0x0800) throw new Error('not IPv4')
    const ip = f.subarray(14)
    const ihl = (ip[0]! & 0x0f) * 4
    const total = ip.readUInt16BE(2)
    if (total !== ip.length) throw new Error(`IPv4 length ${total} ≠ frame ${ip.length}`)
    const addr = (o: number) => [...ip.subarray(o, o + 4)].join('.')
    const t = ip.subarray(ihl)
    const protocol = ip[9] === 6 ? 'tcp' : ip[9] === 17 ? 'udp' : null
    if (!protocol) throw new Error(`protocol ${ip[9]}`)
    const headerLength = protocol === 'tcp' ? (t[12]! >> 4) * 4 : 8
    if (protocol === 'udp' && t.readUInt16BE(4) !== t.length) throw new Error('UDP length')
    const flags = t[13] ?? 0
    frames.push({
      time: sec * 1000 + usec / 1000,
      src: addr(12),
      dst: addr(16),
      protocol,
      srcPort: t.readUInt16BE(0),
      dstPort: t.readUInt16BE(2),
      seq: protocol === 'tcp' ? t.readUInt32BE(4) : 0,
      ack: protocol === 'tcp' ? t.readUInt32BE(8) : 0,
      flags: {
        fin: protocol === 'tcp' && (flags & 1) !== 0,
        syn: protocol === 'tcp' && (flags & 2) !== 0,
        psh: protocol === 'tcp' && (flags & 8) !== 0,
        ack: protocol === 'tcp' && (flags & 16) !== 0,
      },
      payload: t.subarray(headerLength),
    })
  }
  return frames
}

/** The files of a gzip-compressed ustar archive. */
export function readTar(tar: Buffer): Record<string, Buffer> {
  const out: Record<string, Buffer> = {}
  let at = 0
  while (at + 512 <= tar.length && tar[at] !== 0) {
    const name = tar
      .subarray(at, at + 100)
      .toString()
      .replace(/\0.*$/s, '')
    const size = Number.parseInt(
      tar
        .subarray(at + 124, at + 136)
        .toString()
        .replace(/\0.*$/s, ''),
      8,
    )
    out[name] = tar.subarray(at + 512, at + 512 + size)
    at += 512 + Math.ceil(size / 512) * 512
  }
  return out
}
