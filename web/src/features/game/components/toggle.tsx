import classes from './toggle.module.css'

/** An on/off setting: a native checkbox with the switch role, far lighter than a widget library's. */
export function Toggle({
  label,
  checked,
  onChange,
}: {
  label: string
  checked: boolean
  onChange: (checked: boolean) => void
}) {
  return (
    <label className={classes.label}>
      <input
        type="checkbox"
        role="switch"
        aria-checked={checked}
        className={classes.input}
        checked={checked}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
      {label}
    </label>
  )
}
