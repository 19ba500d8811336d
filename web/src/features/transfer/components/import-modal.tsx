import { Alert, Button, Checkbox, Group, List, Progress, Stack, Table, Text } from '@mantine/core'
import { IconAlertTriangle } from '@tabler/icons-react'
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { useRevalidate } from '@/api/hooks'
import { EditModal } from '@/components/edit-modal'
import { ZipPicker } from '@/components/zip-picker'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import { formatSize } from '@/utils/format-size'
import { notify } from '@/utils/notify'
import { type ImportPreview, importGame, previewImport, type TransferWarning } from '../api'
import '@mantine/core/styles/Checkbox.css'
import '@mantine/core/styles/Progress.css'
import '@mantine/core/styles/Table.css'
import '@mantine/core/styles/Alert.css'
import '@mantine/core/styles/List.css'

function WarningText({ warning }: { warning: TransferWarning }) {
  const { t } = useTranslation()
  const list = warning.values.join(', ')
  switch (warning.code) {
    case 'DynamicFlagsChange':
      return <>{t('admin.transfer.warning.dynamic_flags', { list })}</>
    case 'ContainerImages':
      return <>{t('admin.transfer.warning.container_images', { list })}</>
    case 'RemoteAttachments':
      return <>{t('admin.transfer.warning.remote_attachments', { n: list })}</>
    case 'TeamsLeftOut':
      return <>{t('admin.transfer.warning.teams_left_out', { n: list })}</>
    case 'TeamsNotFound':
      return <>{t('admin.transfer.warning.teams_not_found', { list })}</>
  }
}

/** Upload → preview (nothing created yet) → confirm: an archive becomes a new game. */
export function ImportModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const revalidate = useRevalidate()
  const [file, setFile] = useState<File | null>(null)
  const [full, setFull] = useState(false)
  const [preview, setPreview] = useState<ImportPreview | null>(null)
  const [progress, setProgress] = useState<number | null>(null)

  const reset = () => {
    setFile(null)
    setFull(false)
    setPreview(null)
    setProgress(null)
  }
  const close = () => {
    reset()
    onClose()
  }

  const run = async <T,>(work: () => Promise<T>): Promise<T | null> => {
    setProgress(0)
    try {
      return await work()
    } catch (err) {
      notify.error(err)
      return null
    } finally {
      setProgress(null)
    }
  }

  const askPreview = async () => {
    if (!file) return
    const result = await run(() => previewImport(file, full, setProgress))
    if (result) setPreview(result)
  }

  const confirm = async () => {
    if (!file) return
    const result = await run(() => importGame(file, full, setProgress))
    if (!result) return
    notify.success(t('admin.transfer.imported', { title: result.title }))
    await revalidate('/api/edit/games')
    close()
    navigate(paths.admin.game(result.id, 'info'))
  }

  const rows: [string, string | number][] = preview
    ? [
        [t('admin.transfer.field.title'), preview.title],
        [t('admin.transfer.field.challenges'), preview.challenges],
        [t('admin.transfer.field.flags'), preview.flags],
        [t('admin.transfer.field.attachments'), preview.attachments],
        [t('admin.transfer.field.notices'), preview.notices],
        [t('admin.transfer.field.files'), preview.files],
        [t('admin.transfer.field.size'), `${formatSize(preview.size)} (${formatSize(preview.unpackedSize)})`],
        ...(preview.full
          ? ([
              [t('admin.transfer.field.teams'), `${preview.teamsMatched} / ${preview.teams}`],
              [
                t('admin.transfer.field.submissions'),
                `${preview.submissionsImported} / ${preview.submissions}`,
              ],
            ] as [string, string][])
          : []),
      ]
    : []

  return (
    <EditModal opened={opened} onClose={close} title={t('admin.transfer.import_title')} size="lg">
      <Stack>
        {!preview ? (
          <>
            <Text size="sm">{t('admin.transfer.import_intro')}</Text>
            <ZipPicker
              file={file}
              onChange={setFile}
              chooseLabel={t('admin.transfer.choose')}
              noFileLabel={t('admin.transfer.no_file')}
            />
            <Checkbox
              label={t('admin.transfer.full_label')}
              description={t('admin.transfer.full_hint')}
              checked={full}
              onChange={(e) => setFull(e.currentTarget.checked)}
            />
          </>
        ) : (
          <>
            <Text fw={600} component="h3" m={0} size="md">
              {t('admin.transfer.summary')}
            </Text>
            <Table withTableBorder variant="vertical" layout="fixed">
              <Table.Tbody>
                {rows.map(([label, value]) => (
                  <Table.Tr key={label}>
                    <Table.Th w="45%">{label}</Table.Th>
                    <Table.Td style={{ wordBreak: 'break-word' }}>{value}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {preview.warnings.length > 0 && (
              <Alert
                color="yellow"
                variant="light"
                icon={<IconAlertTriangle size={18} aria-hidden />}
                title={t('admin.transfer.warnings')}
              >
                <List size="sm" spacing={4}>
                  {preview.warnings.map((w) => (
                    <List.Item key={w.code}>
                      <WarningText warning={w} />
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
          {preview ? (
            <>
              <Button variant="default" onClick={() => setPreview(null)} disabled={progress !== null}>
                {t('admin.transfer.back')}
              </Button>
              <Button onClick={confirm} loading={progress !== null}>
                {t('admin.transfer.confirm')}
              </Button>
            </>
          ) : (
            <Button onClick={askPreview} disabled={!file} loading={progress !== null}>
              {t('admin.transfer.preview')}
            </Button>
          )}
        </Group>
      </Stack>
    </EditModal>
  )
}
