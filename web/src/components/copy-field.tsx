import { TextInput } from '@mantine/core'
import { CopyButton } from './copy-button'
import { MONO_INPUT } from './mono-input'

/** A read-only monospace value (an address, an id) with a copy button inside the field. */
export function CopyField({ label, value, copyLabel }: { label: string; value: string; copyLabel: string }) {
  return (
    <TextInput
      label={label}
      readOnly
      value={value}
      styles={MONO_INPUT}
      onFocus={(e) => e.currentTarget.select()}
      rightSection={<CopyButton value={value} label={copyLabel} />}
    />
  )
}
