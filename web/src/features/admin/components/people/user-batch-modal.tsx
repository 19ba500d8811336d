import {
  Alert,
  Badge,
  Box,
  Button,
  FileButton,
  Group,
  List,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  VisuallyHidden,
} from '@mantine/core'
import {
  IconAlertTriangle,
  IconArrowLeft,
  IconCircleCheck,
  IconCrown,
  IconFileUpload,
  IconTable,
  IconUserPlus,
} from '@tabler/icons-react'
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react'
import { ApiError } from '@/api/error'
import { EditModal } from '@/components/edit-modal'
import { useTranslation } from '@/i18n'
import { errorMessage } from '@/utils/error-message'
import { notify } from '@/utils/notify'
import {
  BATCH_FIELDS,
  BATCH_LIMITS,
  type BatchField,
  type BatchPreview,
  canCreate,
  type PreviewRow,
  previewBatch,
  type RowProblem,
  rowOfError,
  shownRows,
  toCreateModels,
} from '../../user-batch'
import { useUserActions } from '../../users-api'
import classes from './user-batch.module.css'
import '@mantine/core/styles/List.css'
import '@mantine/core/styles/Switch.css'
import '@mantine/core/styles/Table.css'

/** Larger files are not a list of at most 500 users. */
const MAX_FILE_BYTES = 2 * 1024 * 1024
const EXAMPLE = `userName,email,password,realName,stdNumber,phone,teamName
alice,alice@example.org,Secret-pass1,Alice Example,2024001,+1 555 0100,Red Team
bob,bob@example.org,Secret-pass2,Bob Example,2024002,,Red Team`

type Step = 'edit' | 'preview' | 'done'
interface Failure {
  message: string
  row: number | null
  reason: string
}

/** "Password: at least 6 characters with …" for one problem. */
function useProblemText() {
  const { t } = useTranslation()
  return (problem: RowProblem) => {
    const text = t(`admin.batch.problem.${problem.code}`, problem.params)
    return problem.field ? `${t(`admin.batch.field.${problem.field}`)}: ${text}` : text
  }
}

function PreviewTable({
  preview,
  onlyProblems,
  showPasswords,
  failure,
}: {
  preview: BatchPreview
  onlyProblems: boolean
  showPasswords: boolean
  failure: Failure | null
}) {
  const { t } = useTranslation()
  const problemText = useProblemText()
  const rows = shownRows(preview, onlyProblems, failure?.row)

  const cell = (row: PreviewRow, field: BatchField) => {
    const invalid = row.problems.some((p) => p.field === field)
    let value: ReactNode = row.values[field]
    if (field === 'password' && value && !showPasswords) value = '•'.repeat(8)
    if (field === 'teamName' && row.captain)
      value = (
        <Group gap={4} wrap="wrap">
          <span>{row.values.teamName}</span>
          <Badge
            size="xs"
            color="yellow"
            variant="light"
            leftSection={<IconCrown size={10} aria-hidden />}
            style={{ flexShrink: 0 }}
          >
            {t('admin.batch.captain')}
          </Badge>
        </Group>
      )
    return (
      <Table.Td key={field} className={classes.value} data-field={field} data-invalid={invalid || undefined}>
        {value || (
          <Text span c="dimmed" size="sm">
            <span aria-hidden>—</span>
            <VisuallyHidden>{t('admin.batch.empty_value')}</VisuallyHidden>
          </Text>
        )}
      </Table.Td>
    )
  }

  return (
    <Table.ScrollContainer minWidth={1040} maxHeight="55vh" type="native" visibleFrom="sm">
      <Table verticalSpacing={6} fz="sm" stickyHeader className={classes.table}>
        <Table.Caption>
          <VisuallyHidden>{t('admin.batch.table')}</VisuallyHidden>
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('admin.batch.row')}</Table.Th>
            {BATCH_FIELDS.map((field) => (
              <Table.Th scope="col" key={field}>
                {t(`admin.batch.field.${field}`)}
              </Table.Th>
            ))}
            <Table.Th scope="col">{t('admin.batch.problems')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const serverReason = failure?.row === row.number ? failure.reason : null
            const bad = row.problems.length > 0 || serverReason !== null
            return (
              <Table.Tr
                key={row.number}
                id={`batch-row-${row.number}`}
                className={bad ? classes.bad : undefined}
                aria-invalid={bad || undefined}
              >
                <Table.Th scope="row" className={classes.number}>
                  {row.number}
                </Table.Th>
                {BATCH_FIELDS.map((field) => cell(row, field))}
                <Table.Td className={classes.problems}>
                  {bad ? (
                    <Stack gap={2}>
                      {row.problems.map((p) => (
                        <Text key={`${p.field}-${p.code}`} size="xs" c="red">
                          {problemText(p)}
                        </Text>
                      ))}
                      {serverReason && (
                        <Text size="xs" c="red" fw={600}>
                          {t('admin.batch.server_refused', { reason: serverReason })}
                        </Text>
                      )}
                    </Stack>
                  ) : (
                    <Group gap={4} c="teal" wrap="nowrap">
                      <IconCircleCheck size={14} aria-hidden />
                      <Text span size="xs">
                        {t('admin.batch.row_ok')}
                      </Text>
                    </Group>
                  )}
                </Table.Td>
              </Table.Tr>
            )
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}

/** The preview on phones: a card per row, its problems right under its values. */
function PreviewCards({
  preview,
  onlyProblems,
  showPasswords,
  failure,
}: {
  preview: BatchPreview
  onlyProblems: boolean
  showPasswords: boolean
  failure: Failure | null
}) {
  const { t } = useTranslation()
  const problemText = useProblemText()
  const rows = shownRows(preview, onlyProblems, failure?.row)
  return (
    <Box component="ol" hiddenFrom="sm" className={classes.cards} aria-label={t('admin.batch.table')}>
      {rows.map((row) => {
        const serverReason = failure?.row === row.number ? failure.reason : null
        const bad = row.problems.length > 0 || serverReason !== null
        return (
          <li
            key={row.number}
            id={`batch-card-${row.number}`}
            className={bad ? `${classes.card} ${classes.bad}` : classes.card}
          >
            <Text size="xs" c="dimmed" fw={600}>
              {t('admin.batch.row')} {row.number}
            </Text>
            <dl className={classes.cardFacts}>
              {BATCH_FIELDS.filter((f) => row.values[f] || row.problems.some((p) => p.field === f)).map(
                (field) => (
                  <div key={field}>
                    <dt>{t(`admin.batch.field.${field}`)}</dt>
                    <dd
                      className={classes.value}
                      data-field={field}
                      data-invalid={row.problems.some((p) => p.field === field) || undefined}
                    >
                      {field === 'password' && row.values.password && !showPasswords
                        ? '•'.repeat(8)
                        : row.values[field] || t('admin.batch.empty_value')}
                      {field === 'teamName' && row.captain && (
                        <Badge
                          size="xs"
                          color="yellow"
                          variant="light"
                          ml={6}
                          leftSection={<IconCrown size={10} aria-hidden />}
                        >
                          {t('admin.batch.captain')}
                        </Badge>
                      )}
                    </dd>
                  </div>
                ),
              )}
            </dl>
            {bad ? (
              <Stack gap={2} mt={4}>
                {row.problems.map((p) => (
                  <Text key={`${p.field}-${p.code}`} size="xs" c="red">
                    {problemText(p)}
                  </Text>
                ))}
                {serverReason && (
                  <Text size="xs" c="red" fw={600}>
                    {t('admin.batch.server_refused', { reason: serverReason })}
                  </Text>
                )}
              </Stack>
            ) : (
              <Group gap={4} c="teal" wrap="nowrap" mt={4}>
                <IconCircleCheck size={14} aria-hidden />
                <Text span size="xs">
                  {t('admin.batch.row_ok')}
                </Text>
              </Group>
            )}
          </li>
        )
      })}
    </Box>
  )
}

/**
 * Adds many users at once: paste rows from a spreadsheet (or load a .csv), check every row in a
 * preview, then create them all in one request. Nothing is written before the preview is
 * confirmed, and nothing at all if one row fails on the server (it is pointed out).
 */
export function UserBatchModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation()
  const { createBatch } = useUserActions()
  const [text, setText] = useState('')
  const [step, setStep] = useState<Step>('edit')
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<Failure | null>(null)
  const [onlyProblems, setOnlyProblems] = useState(false)
  const [showPasswords, setShowPasswords] = useState(false)
  const [created, setCreated] = useState<{ users: number; teams: number } | null>(null)
  const [fileError, setFileError] = useState<string | null>(null)
  const outcome = useRef<HTMLDivElement>(null)
  const textarea = useRef<HTMLTextAreaElement>(null)
  const preview = useMemo(() => (step === 'edit' ? null : previewBatch(text)), [text, step])

  // After a refusal, the failing row is brought into view and the message read out.
  useEffect(() => {
    if (!failure) return
    if (failure.row !== null)
      for (const id of [`batch-row-${failure.row}`, `batch-card-${failure.row}`]) {
        const element = document.getElementById(id)
        // Only the visible one of the table row and the card (phones) has a box.
        if (element?.getClientRects().length) element.scrollIntoView({ block: 'center' })
      }
    outcome.current?.focus()
  }, [failure])

  const reset = () => {
    setText('')
    setStep('edit')
    setFailure(null)
    setOnlyProblems(false)
    setShowPasswords(false)
    setCreated(null)
    setFileError(null)
  }
  const close = () => {
    if (busy) return
    onClose()
    // Cleared after the closing animation, so the content does not jump while it fades.
    setTimeout(reset, 250)
  }

  const load = async (file: File | null) => {
    if (!file) return
    setFileError(null)
    if (file.size > MAX_FILE_BYTES) {
      setFileError(t('admin.batch.file_too_large', { name: file.name }))
      return
    }
    try {
      setText(await file.text())
      setFailure(null)
      setStep('preview')
    } catch (err) {
      setFileError(errorMessage(err, t('common.error.unknown')))
    }
  }

  const back = () => {
    setStep('edit')
    setFailure(null)
    requestAnimationFrame(() => textarea.current?.focus())
  }

  const submit = async () => {
    if (!preview || !canCreate(preview)) return
    setBusy(true)
    setFailure(null)
    try {
      await createBatch(toCreateModels(preview))
      setCreated({ users: preview.rows.length, teams: preview.teams.length })
      setStep('done')
      notify.success(t('admin.batch.created', { users: preview.rows.length, teams: preview.teams.length }))
    } catch (err) {
      const message = errorMessage(err, t('common.error.unknown'))
      const named =
        err instanceof ApiError && err.httpStatus === 400
          ? rowOfError(message, (n) => preview.rows[n - 1]?.values.userName)
          : null
      const row = named && named.row >= 1 && named.row <= preview.rows.length ? named.row : null
      setFailure({ message, row, reason: named?.reason ?? message })
    } finally {
      setBusy(false)
    }
  }

  const problemRows = preview?.invalidRows ?? 0
  // The row the server refused counts among the rows to look at, unless it already had problems.
  const flagged =
    problemRows + (failure?.row != null && preview?.rows[failure.row - 1]?.problems.length === 0 ? 1 : 0)
  const ready = preview ? canCreate(preview) : false

  return (
    <EditModal
      opened={opened}
      onClose={close}
      size={step === 'edit' ? 'xl' : 1180}
      closeOnClickOutside={false}
      title={t('admin.batch.title')}
    >
      {step === 'edit' && (
        <Stack gap="md">
          <Text size="sm">{t('admin.batch.intro')}</Text>
          <List size="sm" spacing={4}>
            <List.Item>{t('admin.batch.rule_columns')}</List.Item>
            <List.Item>{t('admin.batch.rule_header')}</List.Item>
            <List.Item>{t('admin.batch.rule_team')}</List.Item>
            <List.Item>{t('admin.batch.rule_existing')}</List.Item>
          </List>
          <Textarea
            ref={textarea}
            label={t('admin.batch.text_label')}
            description={t('admin.batch.text_hint', { max: BATCH_LIMITS.rows })}
            placeholder={EXAMPLE}
            autosize
            minRows={7}
            maxRows={16}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            spellCheck={false}
            data-autofocus
            classNames={{ input: classes.source }}
            wrap="off"
          />
          {fileError && (
            <Alert color="red" role="alert" icon={<IconAlertTriangle size={18} aria-hidden />}>
              {fileError}
            </Alert>
          )}
          <Group justify="space-between" gap="sm">
            <FileButton onChange={load} accept=".csv,.tsv,.txt,text/csv,text/plain,text/tab-separated-values">
              {(props) => (
                <Button {...props} variant="default" leftSection={<IconFileUpload size={16} aria-hidden />}>
                  {t('admin.batch.load_file')}
                </Button>
              )}
            </FileButton>
            <Group gap="sm">
              <Button variant="default" onClick={close}>
                {t('common.button.cancel')}
              </Button>
              <Button
                leftSection={<IconTable size={16} aria-hidden />}
                disabled={!text.trim()}
                onClick={() => setStep('preview')}
              >
                {t('admin.batch.check')}
              </Button>
            </Group>
          </Group>
        </Stack>
      )}

      {step === 'preview' && preview && (
        <Stack gap="md">
          <div ref={outcome} tabIndex={-1} className={classes.outcome}>
            {failure ? (
              <Alert
                color="red"
                role="alert"
                icon={<IconAlertTriangle size={18} aria-hidden />}
                title={t('admin.batch.failed')}
              >
                <Text size="sm">
                  {failure.row !== null
                    ? t('admin.batch.failed_row', { row: failure.row, reason: failure.reason })
                    : failure.message}
                </Text>
                <Text size="sm" mt={4}>
                  {t('admin.batch.nothing_written')}
                </Text>
              </Alert>
            ) : (
              <Alert
                color={ready ? 'teal' : 'orange'}
                icon={
                  ready ? (
                    <IconCircleCheck size={18} aria-hidden />
                  ) : (
                    <IconAlertTriangle size={18} aria-hidden />
                  )
                }
                title={
                  ready
                    ? t('admin.batch.ready', { users: preview.rows.length, teams: preview.teams.length })
                    : t('admin.batch.not_ready')
                }
                aria-live="polite"
              >
                <Stack gap={4}>
                  {preview.rows.length === 0 && <Text size="sm">{t('admin.batch.no_rows')}</Text>}
                  {problemRows > 0 && (
                    <Text size="sm">{t('admin.batch.problem_rows', { count: problemRows })}</Text>
                  )}
                  {preview.tooMany && (
                    <Text size="sm">
                      {t('admin.batch.too_many', { count: preview.rows.length, max: BATCH_LIMITS.rows })}
                    </Text>
                  )}
                  {preview.missingColumns.length > 0 && (
                    <Text size="sm">
                      {t('admin.batch.missing_columns', {
                        columns: preview.missingColumns.map((f) => t(`admin.batch.field.${f}`)).join(', '),
                      })}
                    </Text>
                  )}
                  {preview.teams.length > 0 && <Text size="sm">{t('admin.batch.captain_note')}</Text>}
                </Stack>
              </Alert>
            )}
          </div>
          <Text size="sm" c="dimmed">
            {preview.header
              ? t('admin.batch.header_found')
              : t('admin.batch.header_assumed', {
                  columns: BATCH_FIELDS.map((f) => t(`admin.batch.field.${f}`)).join(', '),
                })}{' '}
            {preview.ignoredColumns.length > 0 &&
              t('admin.batch.ignored_columns', { columns: preview.ignoredColumns.join(', ') })}
          </Text>
          {preview.rows.length > 0 && (
            <>
              <Group gap="lg">
                <Switch
                  label={t('admin.batch.only_problems', { count: flagged })}
                  checked={onlyProblems}
                  onChange={(e) => setOnlyProblems(e.currentTarget.checked)}
                  disabled={flagged === 0}
                />
                <Switch
                  label={t('admin.batch.show_passwords')}
                  checked={showPasswords}
                  onChange={(e) => setShowPasswords(e.currentTarget.checked)}
                />
              </Group>
              <PreviewTable
                preview={preview}
                onlyProblems={onlyProblems}
                showPasswords={showPasswords}
                failure={failure}
              />
              <PreviewCards
                preview={preview}
                onlyProblems={onlyProblems}
                showPasswords={showPasswords}
                failure={failure}
              />
            </>
          )}
          <Group justify="space-between" gap="sm">
            <Button variant="default" leftSection={<IconArrowLeft size={16} aria-hidden />} onClick={back}>
              {t('admin.batch.back')}
            </Button>
            <Button
              leftSection={<IconUserPlus size={16} aria-hidden />}
              disabled={!ready}
              loading={busy}
              onClick={submit}
            >
              {t('admin.batch.create', { count: preview.rows.length })}
            </Button>
          </Group>
        </Stack>
      )}

      {step === 'done' && created && (
        <Stack gap="md">
          <Alert
            color="teal"
            icon={<IconCircleCheck size={18} aria-hidden />}
            title={t('admin.batch.done_title')}
            role="status"
          >
            {t('admin.batch.created', created)}
          </Alert>
          <Text size="sm">{t('admin.batch.done_hint')}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={reset}>
              {t('admin.batch.more')}
            </Button>
            <Button onClick={close} data-autofocus>
              {t('common.button.close')}
            </Button>
          </Group>
        </Stack>
      )}
    </EditModal>
  )
}
