import { Alert, Badge, Button, Checkbox, Group, List, Progress, Stack, Table, Text } from '@mantine/core'
import { IconAlertTriangle } from '@tabler/icons-react'
import { useState } from 'react'
import { EditModal } from '@/components/edit-modal'
import { ZipPicker } from '@/components/zip-picker'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { type FolderPlan, type FolderPlanItem, sendFolder, useEditChallenges } from '../api'
import '@mantine/core/styles/Checkbox.css'
import '@mantine/core/styles/Progress.css'
import '@mantine/core/styles/Table.css'
import '@mantine/core/styles/Alert.css'
import '@mantine/core/styles/List.css'
import '@mantine/core/styles/Badge.css'

const ACTION_COLOR: Record<string, string> = {
  create: 'green',
  change: 'blue',
  remove: 'red',
  unchanged: 'gray',
  'server-only': 'yellow',
}

const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v ?? null))

/** One challenge of the plan: what happens to it and, for a change, each field old → new. */
function PlanItem({ item }: { item: FolderPlanItem }) {
  const { t } = useTranslation()
  return (
    <Stack gap={4} component="li">
      <Group gap="xs" wrap="wrap">
        <Badge color={ACTION_COLOR[item.action] ?? 'gray'} variant="light" size="sm">
          {t(`admin.folder.action.${item.action}`)}
        </Badge>
        <Text fw={600} size="sm" style={{ wordBreak: 'break-word' }}>
          {item.title}
        </Text>
        {item.key && (
          <Text size="xs" c="dimmed" ff="monospace">
            {item.key}
          </Text>
        )}
      </Group>
      {item.changes.length > 0 && (
        <Table withTableBorder layout="fixed" fz="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w="25%">{t('admin.folder.field')}</Table.Th>
              <Table.Th>{t('admin.folder.now')}</Table.Th>
              <Table.Th>{t('admin.folder.then')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {item.changes.map((c) => (
              <Table.Tr key={c.field}>
                <Table.Td ff="monospace">{c.field}</Table.Td>
                <Table.Td style={{ wordBreak: 'break-word', whiteSpace: 'pre-wrap' }}>
                  {show(c.from)}
                </Table.Td>
                <Table.Td style={{ wordBreak: 'break-word', whiteSpace: 'pre-wrap' }}>{show(c.to)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  )
}

/** Upload a zipped challenge folder → the plan, field by field (nothing changed yet) → apply. */
export function FolderModal({
  gameId,
  opened,
  onClose,
}: {
  gameId: number
  opened: boolean
  onClose: () => void
}) {
  const { t } = useTranslation()
  const { mutate } = useEditChallenges(gameId)
  const [file, setFile] = useState<File | null>(null)
  const [prune, setPrune] = useState(false)
  const [plan, setPlan] = useState<FolderPlan | null>(null)
  const [progress, setProgress] = useState<number | null>(null)

  const close = () => {
    setFile(null)
    setPrune(false)
    setPlan(null)
    onClose()
  }

  const send = async (apply: boolean) => {
    if (!file) return
    setProgress(0)
    try {
      const result = await sendFolder(gameId, file, { apply, prune }, setProgress)
      if (!apply) return setPlan(result)
      await mutate()
      const counts = { applied: result.applied ?? 0, failed: result.failed ?? 0 }
      if (counts.failed)
        notify.error(new Error([t('admin.folder.applied', counts), ...result.log].join('\n')))
      else notify.success(t('admin.folder.applied', counts))
      close()
    } catch (err) {
      notify.error(err)
    } finally {
      setProgress(null)
    }
  }

  const errors = plan?.diagnostics.filter((d) => d.severity === 'error') ?? []
  const warnings = plan?.diagnostics.filter((d) => d.severity === 'warning') ?? []
  const line = (d: FolderPlan['diagnostics'][number]) => `${d.file}:${d.line}: ${d.field}: ${d.message}`

  return (
    <EditModal opened={opened} onClose={close} title={t('admin.folder.title')} size="xl">
      <Stack>
        {!plan ? (
          <>
            <Text size="sm">{t('admin.folder.intro')}</Text>
            <ZipPicker
              file={file}
              onChange={setFile}
              chooseLabel={t('admin.folder.choose')}
              noFileLabel={t('admin.folder.no_file')}
            />
            <Checkbox
              label={t('admin.folder.prune_label')}
              description={t('admin.folder.prune_hint')}
              checked={prune}
              onChange={(e) => setPrune(e.currentTarget.checked)}
            />
          </>
        ) : (
          <>
            {errors.length > 0 && (
              <Alert
                color="red"
                variant="light"
                icon={<IconAlertTriangle size={18} aria-hidden />}
                title={t('admin.folder.errors')}
              >
                <List size="sm" spacing={4}>
                  {errors.map((d) => (
                    <List.Item key={line(d)} ff="monospace">
                      {line(d)}
                    </List.Item>
                  ))}
                </List>
              </Alert>
            )}
            {plan.planned && !plan.hasWork && <Text size="sm">{t('admin.folder.nothing')}</Text>}
            <Stack
              gap="sm"
              component="ul"
              p={0}
              m={0}
              style={{ listStyle: 'none' }}
              aria-label={t('admin.folder.plan_list')}
            >
              {plan.items.map((item) => (
                <PlanItem key={`${item.action} ${item.key ?? item.id}`} item={item} />
              ))}
            </Stack>
            {warnings.length > 0 && (
              <Alert color="yellow" variant="light" title={t('admin.folder.warnings')}>
                <List size="xs" spacing={2}>
                  {warnings.map((d) => (
                    <List.Item key={line(d)} ff="monospace">
                      {line(d)}
                    </List.Item>
                  ))}
                </List>
              </Alert>
            )}
          </>
        )}
        {progress !== null && (
          <Progress value={progress * 100} size="sm" animated aria-label={t('common.upload.progress')} />
        )}
        <Group justify="flex-end">
          {plan ? (
            <>
              <Button variant="default" onClick={() => setPlan(null)} disabled={progress !== null}>
                {t('admin.folder.back')}
              </Button>
              <Button onClick={() => send(true)} loading={progress !== null} disabled={!plan.hasWork}>
                {t('admin.folder.apply')}
              </Button>
            </>
          ) : (
            <Button onClick={() => send(false)} disabled={!file} loading={progress !== null}>
              {t('admin.folder.plan')}
            </Button>
          )}
        </Group>
      </Stack>
    </EditModal>
  )
}
