import qrcode from 'qrcode-generator'
import { useMemo } from 'react'

/** Dark modules of the code as one SVG path (one square per module). */
function qrPath(text: string): { path: string; size: number } {
  const qr = qrcode(0, 'M')
  // The library encodes one byte per character: hand it UTF-8 so team names in any script work.
  qr.addData(String.fromCharCode(...new TextEncoder().encode(text)))
  qr.make()
  const size = qr.getModuleCount()
  let path = ''
  for (let row = 0; row < size; row++)
    for (let col = 0; col < size; col++) if (qr.isDark(row, col)) path += `M${col} ${row}h1v1h-1z`
  return { path, size }
}

/** The invite code as a QR code (its own chunk: loaded only when someone asks for it). */
export default function InviteQr({ code, label }: { code: string; label: string }) {
  const { path, size } = useMemo(() => qrPath(code), [code])
  const margin = 2
  const box = size + margin * 2
  return (
    <svg
      viewBox={`${-margin} ${-margin} ${box} ${box}`}
      width={200}
      height={200}
      role="img"
      aria-label={label}
      shapeRendering="crispEdges"
      style={{ background: '#fff', borderRadius: 8, maxWidth: '100%', height: 'auto' }}
    >
      <path d={path} fill="#000" />
    </svg>
  )
}
