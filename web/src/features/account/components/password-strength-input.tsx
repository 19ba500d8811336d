import { PasswordInput, VisuallyHidden } from '@mantine/core'
import { IconCheck, IconX } from '@tabler/icons-react'
import { useId, useState } from 'react'
import { useTranslation } from '@/i18n'
import { type PasswordChecks, passwordChecks, passwordStrength } from '../password-strength'
import classes from './account.module.css'

const ORDER: (keyof PasswordChecks)[] = ['length', 'digit', 'lower', 'upper', 'symbol']

/**
 * A new password with a strength meter and the list of rules, ticked as they are met. The list
 * is the field's description for screen readers; it shows while the field has focus or text.
 */
export function PasswordStrengthInput({
  label,
  value,
  onChange,
  error,
  autoFocus,
}: {
  label: string
  value: string
  onChange: (value: string) => void
  error?: string | null
  autoFocus?: boolean
}) {
  const { t } = useTranslation()
  const id = useId()
  const [focused, setFocused] = useState(false)
  const checks = passwordChecks(value)
  const strength = passwordStrength(value)
  const color = strength < 50 ? 'red' : strength < 80 ? 'yellow' : 'teal'
  const open = focused || value.length > 0

  return (
    <div>
      <PasswordInput
        label={label}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
        error={error}
        autoComplete="new-password"
        required
        autoFocus={autoFocus}
        aria-describedby={open ? id : undefined}
      />
      {open && (
        <>
          <div className={classes.meter} aria-hidden>
            <div style={{ width: `${strength}%`, background: `var(--mantine-color-${color}-filled)` }} />
          </div>
          <ul id={id} className={classes.rules} aria-label={t('account.password.rules')}>
            {ORDER.map((rule) => (
              <li key={rule} className={checks[rule] ? classes.met : classes.unmet}>
                {checks[rule] ? <IconCheck size={14} aria-hidden /> : <IconX size={14} aria-hidden />}
                <span>{t(`account.password.rule_${rule}`)}</span>
                <VisuallyHidden>
                  {checks[rule] ? t('account.password.met') : t('account.password.unmet')}
                </VisuallyHidden>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  )
}
