import { useId } from 'react'
import classes from './choice-group.module.css'

/** One of a few options, as native radio buttons drawn as a segmented bar (arrow keys work). */
export function ChoiceGroup<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string
  value: T
  options: { value: T; label: string }[]
  onChange: (value: T) => void
}) {
  const name = useId()
  return (
    <fieldset className={classes.group}>
      <legend className={classes.legend}>{label}</legend>
      {options.map((option) => (
        <label key={option.value} className={classes.option}>
          <input
            type="radio"
            name={name}
            value={option.value}
            checked={value === option.value}
            onChange={() => onChange(option.value)}
          />
          <span className={classes.text}>{option.label}</span>
        </label>
      ))}
    </fieldset>
  )
}
