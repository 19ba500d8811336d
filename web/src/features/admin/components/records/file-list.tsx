import { ActionIcon, Anchor, Code, Group, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core'
import { IconDownload, IconFiles, IconTrash } from '@tabler/icons-react'
import { useRef, useState } from 'react'
import { confirm } from '@/components/confirm'
import { CopyButton } from '@/components/copy-button'
import { DataState } from '@/components/data-state'
import { useSubmit } from '@/hooks/use-submit'
import { useTranslation } from '@/i18n'
import { assetUrl, pageCount, RECORD_PAGE, shortHash } from '../../admin-lists'
import { type StoredFile, useDeleteFile, useFiles } from '../../files-api'
import { ListPager } from '../people/list-pager'
import classes from './records.module.css'
import '@mantine/core/styles/Table.css'

function FileRow({ file, onRemoved }: { file: StoredFile; onRemoved: () => void }) {
  const { t } = useTranslation()
  const deleteFile = useDeleteFile()
  const { busy, run } = useSubmit()
  const name = file.name || t('admin.files.unnamed')

  const remove = async () => {
    const ok = await confirm({
      title: t('admin.files.delete'),
      message: t('admin.files.delete_confirm', { name }),
      confirmLabel: t('admin.files.delete'),
      danger: true,
    })
    if (!ok) return
    const done = await run(() => deleteFile(file.hash), { success: t('admin.files.deleted', { name }) })
    if (!done) return
    onRemoved()
  }

  return (
    <Table.Tr>
      <Table.Td className={classes.name}>
        <Anchor
          href={assetUrl(file.hash, file.name)}
          size="sm"
          aria-label={t('admin.files.download_named', { name })}
          className={classes.wrap}
        >
          <IconDownload size={14} aria-hidden style={{ verticalAlign: -2, marginRight: 4 }} />
          {name}
        </Anchor>
      </Table.Td>
      <Table.Td>
        <Group gap={2} wrap="nowrap">
          <Code title={file.hash} className={classes.nowrap}>
            {shortHash(file.hash)}
          </Code>
          <CopyButton value={file.hash} label={t('admin.files.copy_hash', { name })} />
        </Group>
      </Table.Td>
      <Table.Td>
        <ActionIcon
          variant="subtle"
          color="red"
          loading={busy}
          onClick={remove}
          aria-label={t('admin.files.delete_named', { name })}
          title={t('admin.files.delete')}
        >
          <IconTrash size={16} aria-hidden />
        </ActionIcon>
      </Table.Td>
    </Table.Tr>
  )
}

/**
 * Every stored file (attachments, avatars, posters, logos), 50 a page by name: download it,
 * copy its hash, delete it. Deleting drops one reference; shared content stays until the last.
 */
export function FileList() {
  const { t } = useTranslation()
  const [page, setPage] = useState(1)
  const { data, error, isLoading, mutate } = useFiles(page)
  const files = data?.data ?? []
  const total = data?.total ?? 0
  const pages = pageCount(total, RECORD_PAGE)
  const first = (page - 1) * RECORD_PAGE + 1
  const status = useRef<HTMLParagraphElement>(null)

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('admin.files.title')}
      </Title>
      <Text size="sm" c="dimmed" maw={720}>
        {t('admin.files.intro')}
      </Text>
      <DataState
        loading={isLoading && !data}
        error={data ? undefined : error}
        onRetry={() => mutate()}
        isEmpty={files.length === 0 && page === 1}
        empty={{ icon: IconFiles, title: t('admin.files.none'), description: t('admin.files.none_hint') }}
      >
        <Text size="sm" c="dimmed" aria-live="polite" ref={status} tabIndex={-1} className={classes.status}>
          {files.length
            ? t('admin.files.count', { from: first, to: first + files.length - 1, total })
            : t('admin.files.page_empty')}
        </Text>
        <Table striped highlightOnHover verticalSpacing={6} layout="fixed" className={classes.fileTable}>
          <Table.Caption>
            <VisuallyHidden>{t('admin.files.table')}</VisuallyHidden>
          </Table.Caption>
          <colgroup>
            <col />
            <col className={classes.hashCol} />
            <col className={classes.actionCol} />
          </colgroup>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('admin.files.col.name')}</Table.Th>
              <Table.Th scope="col">{t('admin.files.col.hash')}</Table.Th>
              <Table.Th scope="col">
                <VisuallyHidden>{t('admin.files.col.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {files.map((file) => (
              <FileRow key={file.hash} file={file} onRemoved={() => status.current?.focus()} />
            ))}
          </Table.Tbody>
        </Table>
        <ListPager page={page} pages={pages} onChange={setPage} label={t('admin.files.pages')} />
      </DataState>
    </Stack>
  )
}
