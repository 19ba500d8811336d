import { Button, Group, PasswordInput, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core'
import { IconDeviceFloppy } from '@tabler/icons-react'
import { type FormEvent, useState } from 'react'
import { EditModal } from '@/components/edit-modal'
import { MONO_INPUT } from '@/components/mono-input'
import { useSubmit } from '@/hooks/use-submit'
import { useTranslation } from '@/i18n'
import { type IdentityProvider, useProviderActions } from '../api'
import {
  BLANK_FORM,
  formOf,
  type ProviderForm,
  type ProviderFormErrors,
  suggestSlug,
  toCreate,
  toUpdate,
  validateProviderForm,
} from '../provider-form'
import '@mantine/core/styles/Switch.css'
import '@mantine/core/styles/SimpleGrid.css'

/** Adds a provider, or edits `provider`; the secret is asked again only to replace it. */
export function ProviderModal({
  provider,
  onClose,
}: {
  provider: IdentityProvider | null
  onClose: () => void
}) {
  const { t } = useTranslation()
  const actions = useProviderActions()
  const editing = provider !== null
  const [form, setForm] = useState<ProviderForm>(provider ? formOf(provider) : BLANK_FORM)
  const [errors, setErrors] = useState<ProviderFormErrors>({})
  // Until the admin types a slug, it follows the display name.
  const [slugTouched, setSlugTouched] = useState(editing)
  const { busy, run } = useSubmit()

  const set = <K extends keyof ProviderForm>(key: K, value: ProviderForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }))
    setErrors((e) => ({ ...e, [key]: undefined }))
  }
  const problem = (key: keyof ProviderForm) => (errors[key] ? t(errors[key]!) : undefined)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const found = validateProviderForm(form, editing)
    setErrors(found)
    if (Object.keys(found).length) return
    const done = await run(
      async () => {
        if (provider) await actions.update(provider.id, toUpdate(form))
        else await actions.create(toCreate(form))
      },
      { success: t(editing ? 'oidc.saved' : 'oidc.added', { name: form.displayName.trim() }) },
    )
    if (!done) return
    onClose()
  }

  return (
    <EditModal opened onClose={onClose} title={t(editing ? 'oidc.edit_title' : 'oidc.add_title')}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label={t('oidc.field.display_name')}
              description={t('oidc.field.display_name_hint')}
              required
              data-autofocus
              maxLength={64}
              value={form.displayName}
              onChange={(e) => {
                const displayName = e.currentTarget.value
                set('displayName', displayName)
                if (!slugTouched) set('slug', suggestSlug(displayName))
              }}
              error={problem('displayName')}
            />
            <TextInput
              label={t('oidc.field.slug')}
              description={t('oidc.field.slug_hint')}
              required
              maxLength={32}
              styles={MONO_INPUT}
              autoCapitalize="none"
              spellCheck={false}
              value={form.slug}
              onChange={(e) => {
                setSlugTouched(true)
                set('slug', e.currentTarget.value)
              }}
              error={problem('slug')}
            />
          </SimpleGrid>
          <TextInput
            label={t('oidc.field.issuer')}
            description={t('oidc.field.issuer_hint')}
            required
            type="url"
            styles={MONO_INPUT}
            autoCapitalize="none"
            spellCheck={false}
            value={form.issuer}
            onChange={(e) => set('issuer', e.currentTarget.value)}
            error={problem('issuer')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label={t('oidc.field.client_id')}
              required
              styles={MONO_INPUT}
              autoCapitalize="none"
              spellCheck={false}
              autoComplete="off"
              value={form.clientId}
              onChange={(e) => set('clientId', e.currentTarget.value)}
              error={problem('clientId')}
            />
            <PasswordInput
              label={t('oidc.field.client_secret')}
              description={
                provider ? t('oidc.field.client_secret_keep', { hint: provider.clientSecretHint }) : undefined
              }
              required={!editing}
              autoComplete="new-password"
              value={form.clientSecret}
              onChange={(e) => set('clientSecret', e.currentTarget.value)}
              error={problem('clientSecret')}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label={t('oidc.field.user_name_claim')}
              description={t('oidc.field.user_name_claim_hint')}
              styles={MONO_INPUT}
              autoCapitalize="none"
              spellCheck={false}
              value={form.userNameClaim}
              onChange={(e) => set('userNameClaim', e.currentTarget.value)}
              error={problem('userNameClaim')}
            />
            <TextInput
              label={t('oidc.field.email_claim')}
              description={t('oidc.field.email_claim_hint')}
              styles={MONO_INPUT}
              autoCapitalize="none"
              spellCheck={false}
              value={form.emailClaim}
              onChange={(e) => set('emailClaim', e.currentTarget.value)}
              error={problem('emailClaim')}
            />
          </SimpleGrid>
          <Switch
            label={t('oidc.field.allow_sign_up')}
            description={t('oidc.field.allow_sign_up_hint')}
            checked={form.allowSignUp}
            onChange={(e) => set('allowSignUp', e.currentTarget.checked)}
          />
          <Switch
            label={t('oidc.field.enabled')}
            description={t('oidc.field.enabled_hint')}
            checked={form.enabled}
            onChange={(e) => set('enabled', e.currentTarget.checked)}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.button.cancel')}
            </Button>
            <Button type="submit" loading={busy} leftSection={<IconDeviceFloppy size={16} aria-hidden />}>
              {t(editing ? 'oidc.save' : 'oidc.add')}
            </Button>
          </Group>
        </Stack>
      </form>
    </EditModal>
  )
}
